"""``pylayer_jax.utils``: Paddle's ``paddle.utils`` path."""

from . import dlpack as dlpack
