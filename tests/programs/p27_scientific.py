"""Scientific code: a physics-informed network for u'' = -pi^2 sin(pi x) on [0, 1] with u(0) = u(1) = 0, its
second derivative from paddle.grad(create_graph=True) twice, trained by Adam and then by LBFGS (closure,
strong_wolfe line search); least squares by paddle.linalg.lstsq / solve / cholesky / qr / pinv on a polynomial
fit, svd / svdvals / eigh / det / slogdet / inv / norm / cond / matrix_rank / lu + lu_solve / matrix_exp / vecdot of
a kernel matrix, and spectral smoothing by
rfft / irfft / fftfreq with a low-pass mask."""
import json
import math
import os

import numpy as np
import paddle
import paddle.nn as nn

rng = np.random.default_rng(0)
rec = {}

# ---- PINN -------------------------------------------------------------------------------------
net = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 1))
r = np.random.default_rng(1)
net.set_state_dict({k: (r.standard_normal(v.shape) * 0.5).astype("float32") for k, v in net.state_dict().items()})
xs = np.linspace(0.02, 0.98, 24, dtype="float32").reshape(-1, 1)


def pinn_loss():
    x = paddle.to_tensor(xs, stop_gradient=False)
    u = net(x)
    du = paddle.grad(u, x, grad_outputs=paddle.ones_like(u), create_graph=True)[0]
    d2u = paddle.grad(du, x, grad_outputs=paddle.ones_like(du), create_graph=True)[0]
    res = d2u + math.pi ** 2 * paddle.sin(math.pi * x)
    bc = net(paddle.to_tensor([[0.0], [1.0]]))
    return (res ** 2).mean() + 10 * (bc ** 2).mean()


adam = paddle.optimizer.Adam(learning_rate=0.01, parameters=net.parameters())
rec["adam"] = []
for _ in range(15):
    loss = pinn_loss()
    loss.backward()
    adam.step()
    adam.clear_grad()
    rec["adam"].append(loss.item())
lbfgs = paddle.optimizer.LBFGS(learning_rate=1.0, max_iter=5, history_size=5, line_search_fn="strong_wolfe",
                               parameters=net.parameters())


def closure():
    lbfgs.clear_grad()
    loss = pinn_loss()
    loss.backward()
    return loss


rec["lbfgs"] = [float(lbfgs.step(closure)) for _ in range(3)]
rec["pinn_u"] = net(paddle.to_tensor([[0.25], [0.5], [0.75]])).numpy().ravel().tolist()

# ---- linear algebra ---------------------------------------------------------------------------
t = np.linspace(-1, 1, 20)
yv = 0.5 - t + 2 * t ** 3 + 0.05 * rng.standard_normal(20)
V = paddle.to_tensor(np.stack([t ** k for k in range(4)], 1))              # float64 Vandermonde
y = paddle.to_tensor(yv.reshape(-1, 1))
sol = paddle.linalg.lstsq(V, y)
rec["lstsq"] = [sol[0].numpy().ravel().tolist(), int(sol[2])]
G = V.T @ V
L = paddle.linalg.cholesky(G)
z = paddle.linalg.triangular_solve(L, V.T @ y, upper=False)
rec["chol"] = paddle.linalg.triangular_solve(L.T, z, upper=True).numpy().ravel().tolist()
Q, R = paddle.linalg.qr(V)
rec["qr"] = [paddle.linalg.solve(R, Q.T @ y).numpy().ravel().tolist(), bool(paddle.allclose(Q @ R, V).item())]
rec["pinv"] = (paddle.linalg.pinv(V) @ y).numpy().ravel().tolist()
rec["cholesky_solve"] = paddle.linalg.cholesky_solve(V.T @ y, L).numpy().ravel().tolist()

pts = paddle.to_tensor(rng.standard_normal((6, 2)).astype("float32"))
K = paddle.exp(-paddle.cdist(pts, pts) ** 2) + 0.1 * paddle.eye(6)
U, S, Vh = paddle.linalg.svd(K)
w, vecs = paddle.linalg.eigh(K)
rec["svd_S"] = S.numpy().tolist()
rec["eigh_w"] = w.numpy().tolist()
rec["eig_vec_abs0"] = vecs[:, -1].abs().numpy().tolist()
rec["recon"] = bool(paddle.allclose(U @ paddle.diag(S) @ Vh, K, atol=1e-5).item())
sign, logdet = paddle.linalg.slogdet(K)
rec["det"] = [paddle.linalg.det(K).item(), sign.item(), logdet.item()]
rec["inv"] = paddle.linalg.inv(K)[0].numpy().tolist()
rec["norms"] = [paddle.linalg.norm(K).item(), paddle.linalg.norm(K, p="nuc").item(), paddle.linalg.norm(K, p=2).item(),
                paddle.linalg.norm(K, p=1, axis=[0, 1]).item(), paddle.linalg.vector_norm(K, p=3).item(),
                paddle.linalg.cond(K).item(), int(paddle.linalg.matrix_rank(K))]
lu, piv = paddle.linalg.lu(K)
rhs = paddle.to_tensor(rng.standard_normal((6, 2)).astype("float32"))
rec["lu_solve"] = paddle.linalg.lu_solve(rhs, lu, piv).numpy().tolist()
rec["svdvals"] = paddle.linalg.svdvals(K).numpy().tolist()
rec["expm"] = paddle.linalg.matrix_exp(0.1 * K)[0].numpy().tolist()
rec["vecdot"] = paddle.linalg.vecdot(K, rhs[:, :1].T).numpy().tolist()
rec["matrix_power"] = paddle.linalg.matrix_power(K, 3)[0, :3].numpy().tolist()

# ---- spectral smoothing -----------------------------------------------------------------------
n = 64
tt = np.arange(n) / n
sig = np.sin(2 * np.pi * 3 * tt) + 0.4 * np.sin(2 * np.pi * 20 * tt) + 0.1 * rng.standard_normal(n)
x = paddle.to_tensor(sig.astype("float32"))
X = paddle.fft.rfft(x)
freqs = paddle.fft.rfftfreq(n, d=1.0 / n)
smooth = paddle.fft.irfft(X * (freqs.abs() < 10).astype("complex64"), n=n)
rec["rfft_abs"] = X.abs()[:6].numpy().tolist()
rec["smooth"] = smooth[:8].numpy().tolist()
rec["power_peak"] = int(paddle.argmax(X.abs()[1:]).item()) + 1
rec["fftfreq"] = paddle.fft.fftfreq(8, d=0.5).numpy().tolist()
rec["ortho"] = paddle.fft.fft(x[:8].astype("complex64"), norm="ortho").real().numpy().tolist()
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
