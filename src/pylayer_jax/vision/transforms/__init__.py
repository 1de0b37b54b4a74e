"""``paddle.vision.transforms``: image transforms for numpy HWC arrays, Tensor CHW images and PIL images."""

from . import functional as functional
from . import transforms as transforms
from .functional import adjust_brightness as adjust_brightness
from .functional import adjust_contrast as adjust_contrast
from .functional import adjust_hue as adjust_hue
from .functional import affine as affine
from .functional import center_crop as center_crop
from .functional import crop as crop
from .functional import erase as erase
from .functional import hflip as hflip
from .functional import normalize as normalize
from .functional import pad as pad
from .functional import perspective as perspective
from .functional import resize as resize
from .functional import rotate as rotate
from .functional import to_grayscale as to_grayscale
from .functional import to_tensor as to_tensor
from .functional import vflip as vflip
from .transforms import BaseTransform as BaseTransform
from .transforms import BrightnessTransform as BrightnessTransform
from .transforms import CenterCrop as CenterCrop
from .transforms import ColorJitter as ColorJitter
from .transforms import Compose as Compose
from .transforms import ContrastTransform as ContrastTransform
from .transforms import Grayscale as Grayscale
from .transforms import HueTransform as HueTransform
from .transforms import Normalize as Normalize
from .transforms import Pad as Pad
from .transforms import RandomAffine as RandomAffine
from .transforms import RandomCrop as RandomCrop
from .transforms import RandomErasing as RandomErasing
from .transforms import RandomHorizontalFlip as RandomHorizontalFlip
from .transforms import RandomPerspective as RandomPerspective
from .transforms import RandomResizedCrop as RandomResizedCrop
from .transforms import RandomRotation as RandomRotation
from .transforms import RandomVerticalFlip as RandomVerticalFlip
from .transforms import Resize as Resize
from .transforms import SaturationTransform as SaturationTransform
from .transforms import ToTensor as ToTensor
from .transforms import Transpose as Transpose

__all__ = [
    "BaseTransform", "Compose", "Resize", "RandomResizedCrop", "CenterCrop", "RandomHorizontalFlip",
    "RandomVerticalFlip", "Transpose", "Normalize", "BrightnessTransform", "SaturationTransform", "ContrastTransform",
    "HueTransform", "ColorJitter", "RandomCrop", "Pad", "RandomAffine", "RandomRotation", "RandomPerspective",
    "Grayscale", "ToTensor", "RandomErasing", "to_tensor", "hflip", "vflip", "resize", "pad", "affine", "rotate",
    "perspective", "to_grayscale", "crop", "center_crop", "adjust_brightness", "adjust_contrast", "adjust_hue",
    "normalize", "erase",
]
