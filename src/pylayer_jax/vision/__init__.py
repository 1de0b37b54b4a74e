"""``paddle.vision``: image transforms, classification models and data sets (loaded on first use of
``pylayer_jax.vision``)."""

from . import datasets as datasets
from . import models as models
from . import ops as ops
from . import transforms as transforms
from .datasets import MNIST as MNIST
from .datasets import Cifar10 as Cifar10
from .datasets import Cifar100 as Cifar100
from .datasets import DatasetFolder as DatasetFolder
from .datasets import FashionMNIST as FashionMNIST
from .datasets import ImageFolder as ImageFolder
from .image import get_image_backend as get_image_backend
from .image import image_load as image_load
from .image import set_image_backend as set_image_backend
from .models import *  # noqa: F403
from .transforms import *  # noqa: F403

__all__ = ["set_image_backend", "get_image_backend", "image_load"]
