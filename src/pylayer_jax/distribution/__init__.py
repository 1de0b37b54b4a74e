"""``paddle.distribution``: probability distributions with sampling (from the generator ``paddle.seed`` resets),
``log_prob``/``prob``, ``entropy``, ``mean``/``variance``, and ``kl_divergence`` between pairs of them.

>>> import pylayer_jax as paddle
>>> from pylayer_jax.distribution import Normal, kl_divergence
>>> p, q = Normal(0.0, 1.0), Normal(1.0, 2.0)
>>> round(float(kl_divergence(p, q)), 4)
0.4431
"""

from ._base import Distribution as Distribution
from ._continuous import Beta as Beta
from ._continuous import Exponential as Exponential
from ._continuous import Gamma as Gamma
from ._continuous import Laplace as Laplace
from ._continuous import LogNormal as LogNormal
from ._continuous import Normal as Normal
from ._continuous import Uniform as Uniform
from ._discrete import Bernoulli as Bernoulli
from ._discrete import Categorical as Categorical
from ._discrete import Multinomial as Multinomial
from ._kl import kl_divergence as kl_divergence
from ._kl import register_kl as register_kl
from ._multivariate import Dirichlet as Dirichlet
from ._multivariate import MultivariateNormal as MultivariateNormal

__all__ = [
    "Bernoulli", "Beta", "Categorical", "Dirichlet", "Distribution", "Exponential", "Gamma", "Laplace", "LogNormal",
    "Multinomial", "MultivariateNormal", "Normal", "Uniform", "kl_divergence", "register_kl",
]
