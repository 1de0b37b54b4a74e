"""``paddle.vision.datasets``: MNIST, FashionMNIST, Cifar10/100, Flowers and VOC2012 from local files, and folder
datasets. Nothing is downloaded: a data set whose file is not given raises, saying which file to pass."""

from .cifar import Cifar10 as Cifar10
from .cifar import Cifar100 as Cifar100
from .flowers import Flowers as Flowers
from .folder import DatasetFolder as DatasetFolder
from .folder import ImageFolder as ImageFolder
from .mnist import MNIST as MNIST
from .mnist import FashionMNIST as FashionMNIST
from .voc2012 import VOC2012 as VOC2012

__all__ = ["DatasetFolder", "ImageFolder", "MNIST", "FashionMNIST", "Cifar10", "Cifar100", "Flowers", "VOC2012"]
