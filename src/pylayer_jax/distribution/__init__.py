"""``paddle.distribution``: probability distributions with sampling (from the generator ``paddle.seed`` resets),
``log_prob``/``prob``, ``entropy``, ``mean``/``variance``, ``kl_divergence`` between pairs of them, and the
transforms (``ExpTransform``, ``AffineTransform``, ...) that ``TransformedDistribution`` pushes a base
distribution through.

>>> import pylayer_jax as paddle
>>> from pylayer_jax.distribution import Normal, kl_divergence
>>> p, q = Normal(0.0, 1.0), Normal(1.0, 2.0)
>>> round(float(kl_divergence(p, q)), 4)
0.4431
"""

from ._base import Distribution as Distribution
from ._base import ExponentialFamily as ExponentialFamily
from ._continuous import Beta as Beta
from ._continuous import Exponential as Exponential
from ._continuous import Gamma as Gamma
from ._continuous import Laplace as Laplace
from ._continuous import LogNormal as LogNormal
from ._continuous import Normal as Normal
from ._continuous import Uniform as Uniform
from ._continuous_extra import Cauchy as Cauchy
from ._continuous_extra import Chi2 as Chi2
from ._continuous_extra import ContinuousBernoulli as ContinuousBernoulli
from ._continuous_extra import Gumbel as Gumbel
from ._continuous_extra import StudentT as StudentT
from ._counts import Binomial as Binomial
from ._counts import Geometric as Geometric
from ._counts import Poisson as Poisson
from ._discrete import Bernoulli as Bernoulli
from ._discrete import Categorical as Categorical
from ._discrete import Multinomial as Multinomial
from ._kl import kl_divergence as kl_divergence
from ._kl import register_kl as register_kl
from ._lkj import LKJCholesky as LKJCholesky
from ._multivariate import Dirichlet as Dirichlet
from ._multivariate import MultivariateNormal as MultivariateNormal
from ._transform import AbsTransform as AbsTransform
from ._transform import AffineTransform as AffineTransform
from ._transform import ChainTransform as ChainTransform
from ._transform import ExpTransform as ExpTransform
from ._transform import IndependentTransform as IndependentTransform
from ._transform import PowerTransform as PowerTransform
from ._transform import ReshapeTransform as ReshapeTransform
from ._transform import SigmoidTransform as SigmoidTransform
from ._transform import SoftmaxTransform as SoftmaxTransform
from ._transform import StackTransform as StackTransform
from ._transform import StickBreakingTransform as StickBreakingTransform
from ._transform import TanhTransform as TanhTransform
from ._transform import Transform as Transform
from ._transformed import Independent as Independent
from ._transformed import TransformedDistribution as TransformedDistribution

__all__ = [
    "Bernoulli", "Beta", "Categorical", "Cauchy", "Chi2", "ContinuousBernoulli", "Dirichlet", "Distribution",
    "Exponential", "ExponentialFamily", "Multinomial", "MultivariateNormal", "Normal", "Uniform", "kl_divergence",
    "register_kl", "Independent", "TransformedDistribution", "Laplace", "LogNormal", "LKJCholesky", "Gamma", "Gumbel",
    "Geometric", "Binomial", "Poisson", "StudentT", "Transform", "AbsTransform", "AffineTransform", "ChainTransform",
    "ExpTransform", "IndependentTransform", "PowerTransform", "ReshapeTransform", "SigmoidTransform",
    "SoftmaxTransform", "StackTransform", "StickBreakingTransform", "TanhTransform",
]
