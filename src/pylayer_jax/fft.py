"""``paddle.fft`` import path: re-exports (layer L7)."""

from ._api.fft import fft as fft
from ._api.fft import fft2 as fft2
from ._api.fft import fftfreq as fftfreq
from ._api.fft import fftn as fftn
from ._api.fft import fftshift as fftshift
from ._api.fft import hfft as hfft
from ._api.fft import hfft2 as hfft2
from ._api.fft import hfftn as hfftn
from ._api.fft import ifft as ifft
from ._api.fft import ifft2 as ifft2
from ._api.fft import ifftn as ifftn
from ._api.fft import ifftshift as ifftshift
from ._api.fft import ihfft as ihfft
from ._api.fft import ihfft2 as ihfft2
from ._api.fft import ihfftn as ihfftn
from ._api.fft import irfft as irfft
from ._api.fft import irfft2 as irfft2
from ._api.fft import irfftn as irfftn
from ._api.fft import rfft as rfft
from ._api.fft import rfft2 as rfft2
from ._api.fft import rfftfreq as rfftfreq
from ._api.fft import rfftn as rfftn

__all__ = [
    "fft",
    "ifft",
    "rfft",
    "irfft",
    "hfft",
    "ihfft",
    "fft2",
    "ifft2",
    "rfft2",
    "irfft2",
    "hfft2",
    "ihfft2",
    "fftn",
    "ifftn",
    "rfftn",
    "irfftn",
    "hfftn",
    "ihfftn",
    "fftfreq",
    "rfftfreq",
    "fftshift",
    "ifftshift",
]
