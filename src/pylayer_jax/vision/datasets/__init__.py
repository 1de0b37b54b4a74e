"""``paddle.vision.datasets``: MNIST, FashionMNIST, Cifar10/100 from local files, and folder datasets. Nothing is
downloaded: a data set whose file is not given raises, saying which file to pass."""

from .cifar import Cifar10 as Cifar10
from .cifar import Cifar100 as Cifar100
from .folder import DatasetFolder as DatasetFolder
from .folder import ImageFolder as ImageFolder
from .mnist import MNIST as MNIST
from .mnist import FashionMNIST as FashionMNIST

__all__ = ["DatasetFolder", "ImageFolder", "MNIST", "FashionMNIST", "Cifar10", "Cifar100"]
