"""Cases of ``paddle.audio`` recorded from Paddle 3.3.1 (``tests/record_paddle_audio.py``) and replayed by
``tests/audio/test_audio.py``: ``record(paddle)`` runs them with whichever package is passed (real Paddle, or
pylayer_jax in the tests), so both sides run the very same calls."""

from __future__ import annotations

import wave

import numpy as np

HZ = [0.0, 300.0, 999.5, 1000.0, 1500.0, 8000.0]
WINDOWS = ["hamming", "hann", "blackman", "nuttall", "bartlett", "triang", "bohman", "cosine", "tukey", "taylor",
           ("kaiser", 8.0), ("gaussian", 2.5), ("general_gaussian", 1.5, 3.0), ("exponential", None, 2.0),
           ("tukey", 0.3), ("tukey", 1.0), ("taylor", 5, 40, False)]
GRADS = ("spec_p1", "logmel", "mfcc", "mfcc_f64")  # the features whose input gradient is recorded too
FEATURES = {
    "spec_p1": ("Spectrogram", {"n_fft": 128, "hop_length": 64}),
    "spec_p2_hamming_nocenter": ("Spectrogram", {"n_fft": 128, "hop_length": 32, "win_length": 100,
                                                 "window": "hamming", "power": 2.0, "center": False}),
    "mel": ("MelSpectrogram", {"sr": 8000, "n_fft": 128, "hop_length": 64, "n_mels": 16}),
    "mel_htk_l2": ("MelSpectrogram", {"sr": 8000, "n_fft": 128, "hop_length": 64, "n_mels": 12, "htk": True,
                                      "norm": 2.0, "f_max": 3000.0}),
    "logmel": ("LogMelSpectrogram", {"sr": 8000, "n_fft": 128, "n_mels": 16, "top_db": 60.0}),
    "mfcc": ("MFCC", {"sr": 8000, "n_mfcc": 8, "n_fft": 128, "n_mels": 16, "top_db": 80.0}),
    # without top_db the log of the near-empty mel bands amplifies float32 rounding in the gradient: float64 here
    "mfcc_f64": ("MFCC", {"sr": 8000, "n_mfcc": 8, "n_fft": 128, "n_mels": 16, "dtype": "float64"}),
}


def waveform(dtype: str = "float32") -> np.ndarray:
    t = np.arange(400) / 8000.0
    rng = np.random.default_rng(3)
    x = np.stack([0.6 * np.sin(2 * np.pi * 440 * t) + 0.05 * rng.standard_normal(t.shape),
                  0.3 * np.sin(2 * np.pi * 1200 * t) * np.cos(2 * np.pi * 3 * t)])
    return x.astype(dtype)


def _err(fn) -> str | None:
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the type is what is recorded
        return type(e).__name__
    return None


def record(paddle, tmpdir: str) -> dict:
    AF = paddle.audio.functional
    out: dict = {}
    out["hz_to_mel_float"] = [[AF.hz_to_mel(f, htk=h) for f in HZ] for h in (False, True)]
    mels = [0.0, 5.0, 14.9, 15.0, 20.0, 45.0]
    out["mel_to_hz_float"] = [[AF.mel_to_hz(m, htk=False) for m in mels], [AF.mel_to_hz(m * 100, htk=True) for m in mels]]
    for dt in ("float32", "float64"):
        for h in (False, True):
            t = paddle.to_tensor(np.array(HZ[1:], dt), stop_gradient=False)
            m = AF.hz_to_mel(t, htk=h)
            (g,) = paddle.grad(m.sum(), t)
            back = AF.mel_to_hz(m, htk=h)
            out[f"hz_to_mel_{dt}_{h}"] = {"mel": m.numpy().tolist(), "grad": g.numpy().tolist(),
                                          "back": back.numpy().tolist(), "dtype": str(m.dtype).split(".")[-1]}
    for h in (False, True):
        for dt in ("float32", "float64"):
            out[f"mel_frequencies_{h}_{dt}"] = AF.mel_frequencies(10, f_min=20.0, f_max=8000.0, htk=h,
                                                                  dtype=dt).numpy().tolist()
    out["fft_frequencies"] = AF.fft_frequencies(16000, 32).numpy().tolist()
    out["fft_frequencies_f64_odd"] = AF.fft_frequencies(22050, 31, dtype="float64").numpy().tolist()
    for key, kw in {"slaney": {}, "htk_fmax": {"htk": True, "f_max": 3000.0, "f_min": 100.0},
                    "l1": {"norm": 1.0}, "l2_f64": {"norm": 2.0, "dtype": "float64"}, "none": {"norm": None}}.items():
        w = AF.compute_fbank_matrix(sr=8000, n_fft=64, n_mels=10, **kw)
        out[f"fbank_{key}"] = {"values": w.numpy().tolist(), "dtype": str(w.dtype).split(".")[-1]}
    spect = paddle.to_tensor(np.array([[1e-12, 1e-3, 0.5], [2.0, 40.0, 1e4]], "float32"), stop_gradient=False)
    for key, kw in {"default": {}, "ref_amin": {"ref_value": 0.5, "amin": 1e-5}, "no_top": {"top_db": None},
                    "top20": {"top_db": 20.0, "ref_value": 2.0}}.items():
        db = AF.power_to_db(spect, **kw)
        (g,) = paddle.grad(db.sum(), spect)
        out[f"power_to_db_{key}"] = {"values": db.numpy().tolist(), "grad": g.numpy().tolist()}
    out["power_to_db_errors"] = [_err(lambda: AF.power_to_db(spect, amin=0.0)),
                                 _err(lambda: AF.power_to_db(spect, ref_value=-1.0)),
                                 _err(lambda: AF.power_to_db(spect, top_db=-1.0))]
    for norm in ("ortho", None):
        for dt in ("float32", "float64"):
            d = AF.create_dct(13, 20, norm=norm, dtype=dt)
            out[f"dct_{norm}_{dt}"] = {"values": d.numpy().tolist(), "shape": list(d.shape)}
    wins = {}
    for win in WINDOWS:
        for n in (1, 7, 8):
            for fftbins in (True, False):
                for dt in ("float32", "float64"):
                    w = AF.get_window(win, n, fftbins=fftbins, dtype=dt)
                    wins[f"{win}|{n}|{fftbins}|{dt}"] = {"values": w.numpy().tolist(),
                                                         "dtype": str(w.dtype).split(".")[-1]}
    out["windows"] = wins
    out["window_default_dtype"] = str(AF.get_window("hann", 4).dtype).split(".")[-1]
    out["window_errors"] = {
        "kaiser_str": _err(lambda: AF.get_window("kaiser", 8)),
        "unknown": _err(lambda: AF.get_window("nope", 8)),
        "negative": _err(lambda: AF.get_window("hann", -1)),
        "not_str": _err(lambda: AF.get_window(3, 8)),
        "exponential_center_sym": _err(lambda: AF.get_window(("exponential", 2.0, 1.0), 8, fftbins=False)),
    }
    feats = {}
    for key, (cls, kw) in FEATURES.items():
        x = paddle.to_tensor(waveform(kw.get("dtype", "float32")), stop_gradient=False)
        layer = getattr(paddle.audio.features, cls)(**kw)
        y = layer(x)
        feats[key] = {"values": y.numpy().tolist(), "shape": list(y.shape),
                      "state_dict": list(layer.state_dict().keys())}
        if key in GRADS:
            (g,) = paddle.grad((y * y).mean(), x)
            feats[key]["grad"] = g.numpy().tolist()
        if key == "mfcc":
            feats[key]["buffers"] = {k: v.numpy().tolist() for k, v in layer.state_dict().items()}
    out["features"] = feats
    out["feature_errors"] = {
        "mfcc_too_many": _err(lambda: paddle.audio.features.MFCC(n_mfcc=20, n_mels=10)),
        "power_zero": _err(lambda: paddle.audio.features.Spectrogram(power=0.0)),
    }
    # WAV files: Paddle's save, read back by both
    path = f"{tmpdir}/a.wav"
    src = paddle.to_tensor((waveform()[:, :50] * 1.5).clip(-1, 0.999))
    paddle.audio.save(path, src, 8000)
    with wave.open(path) as w:
        out["saved"] = {"channels": w.getnchannels(), "width": w.getsampwidth(), "rate": w.getframerate(),
                        "frames": np.frombuffer(w.readframes(w.getnframes()), "<i2").tolist()}
    inf = paddle.audio.info(path)
    out["info"] = [inf.sample_rate, inf.num_samples, inf.num_channels, inf.bits_per_sample, inf.encoding]
    loads = {}
    for key, kw in {"default": {}, "raw": {"normalize": False}, "time_first": {"channels_first": False},
                    "window": {"frame_offset": 10, "num_frames": 20}, "offset_only": {"frame_offset": 10}}.items():
        wav, sr = paddle.audio.load(path, **kw)
        loads[key] = {"values": wav.numpy().tolist(), "sr": sr, "dtype": str(wav.dtype).split(".")[-1]}
    out["loads"] = loads
    with open(path, "rb") as f:
        wav, _ = paddle.audio.load(f)
    out["load_file_object_equal"] = bool(np.array_equal(wav.numpy(), np.array(loads["default"]["values"])))
    int_path = f"{tmpdir}/i.wav"
    paddle.audio.save(int_path, paddle.to_tensor(np.array([[1, -2, 300], [7, 8, -32768]], "int16")), 16000,
                      channels_first=False)
    with wave.open(int_path) as w:
        out["saved_int16"] = [w.getnchannels(), np.frombuffer(w.readframes(w.getnframes()), "<i2").tolist()]
    with open(f"{tmpdir}/not.wav", "wb") as f:
        f.write(b"plain text, not audio")
    out["wav_errors"] = {
        "load_not_wav": _err(lambda: paddle.audio.load(f"{tmpdir}/not.wav")),
        "info_not_wav": _err(lambda: paddle.audio.info(f"{tmpdir}/not.wav")),
        "save_bits": _err(lambda: paddle.audio.save(f"{tmpdir}/b.wav", src, 8000, bits_per_sample=8)),
    }
    out["backends"] = [paddle.audio.backends.get_current_backend(),
                       "wave_backend" in paddle.audio.backends.list_available_backends(),
                       _err(lambda: paddle.audio.backends.set_backend("soundfile"))]
    return out
