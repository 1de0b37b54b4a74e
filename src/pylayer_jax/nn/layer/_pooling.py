"""Pooling layers (layer L5): max/avg/lp/adaptive/fractional pools 1-3D, ``MaxUnPool1D/2D/3D``, ``Fold``/``Unfold``.

Each layer keeps its constructor arguments (Paddle's signature, in Paddle's order) and forwards them by
keyword to the ``nn.functional`` function of the same name."""

from __future__ import annotations

import inspect
from typing import Any

from .. import _functional as F
from ._layers import Layer

_EMPTY = inspect.Parameter.empty
_PLURAL = ("dilations", "paddings", "strides")


class _PoolBase(Layer):
    _fn: Any = None
    _args: tuple[tuple[str, Any], ...] = ()
    _repr: tuple[str, ...] = ()
    _fixed: dict[str, Any] = {}
    _ranks: tuple[int, ...] = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()
        api = type(self).__name__
        try:
            bound = type(self).__signature__.bind(self, *args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{api}: {e}; see the signature {type(self).__signature__}.") from None
        bound.apply_defaults()
        self._kw = {k: v for k, v in bound.arguments.items() if k not in ("self", "name")}
        self.name = bound.arguments.get("name")

    def __getattr__(self, name: str) -> Any:
        kw = self.__dict__.get("_kw")
        if kw is not None and name in kw:
            return kw[name]
        return super().__getattr__(name)

    def forward(self, x: Any, *rest: Any, indices: Any = None, output_size: Any = None) -> Any:
        if len(x.shape) not in self._ranks:
            raise ValueError(f"{type(self).__name__}: the input must be {self._ranks[0]}-D, but received shape "
                             f"{list(x.shape)}.")
        kw = {**self._kw, **self._fixed}
        if rest:  # MaxUnPool: (x, indices[, output_size]), positionally or by keyword
            indices = rest[0]
            output_size = rest[1] if len(rest) > 1 else output_size
        if indices is not None or "indices" in inspect.signature(type(self)._fn).parameters:
            if indices is None:
                raise TypeError(f"{type(self).__name__}.forward: indices is required (the mask of the max pool "
                                f"that made x); call layer(x, indices).")
            kw["indices"] = indices
            if output_size is not None:  # the call's output_size wins over the constructor's
                kw["output_size"] = output_size
        elif output_size is not None:
            raise TypeError(f"{type(self).__name__}.forward: only MaxUnPool layers take output_size at call, but "
                            f"received output_size={output_size!r}; pass it to the constructor.")
        return type(self)._fn(x, **kw)

    def extra_repr(self) -> str:
        kw = dict(self._kw)
        if "norm_type" in kw:  # Paddle shows LPPool's norm_type as a float and stride as the kernel size
            kw["norm_type"] = float(kw["norm_type"])
            kw["stride"] = kw["kernel_size"] if kw["stride"] is None else kw["stride"]
        # Fold/Unfold show their plural arguments under singular names
        return ", ".join(f"{k.removesuffix('s') if k.endswith('sizes') or k in _PLURAL else k}={kw[k]}"
                         for k in self._repr)


def _pool(name: str, fn: Any, args: tuple[tuple[str, Any], ...], ranks: tuple[int, ...], shown: tuple[str, ...],
          doc: str, fixed: dict[str, Any] | None = None) -> type:
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    params += [inspect.Parameter(a, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=d) for a, d in args]
    params.append(inspect.Parameter("name", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None))
    return type(name, (_PoolBase,), {"_fn": staticmethod(fn), "_args": args, "_ranks": ranks, "_repr": shown,
                                     "_fixed": fixed or {}, "__doc__": doc, "__module__": __name__,
                                     "__signature__": inspect.Signature(params)})


_K = ("kernel_size", _EMPTY)
_SPR = ("kernel_size", "stride", "padding")
_MAX = (("stride", None), ("padding", 0), ("return_mask", False), ("ceil_mode", False))
MaxPool1D = _pool("MaxPool1D", F.max_pool1d, (_K, *_MAX), (3,), _SPR, "Max pooling of ``[N, C, L]`` input.")
MaxPool2D = _pool("MaxPool2D", F.max_pool2d, (_K, *_MAX, ("data_format", "NCHW")), (4,), _SPR,
                  "Max pooling of ``[N, C, H, W]`` input (``return_mask`` also returns flat argmax indices).")
MaxPool3D = _pool("MaxPool3D", F.max_pool3d, (_K, *_MAX, ("data_format", "NCDHW")), (5,), _SPR,
                  "Max pooling of ``[N, C, D, H, W]`` input.")
AvgPool1D = _pool("AvgPool1D", F.avg_pool1d, (_K, ("stride", None), ("padding", 0), ("exclusive", True),
                                              ("ceil_mode", False)), (3,), _SPR,
                  "Average pooling of ``[N, C, L]`` input (``exclusive`` leaves padding out of the count).")
_AVG = (("stride", None), ("padding", 0), ("ceil_mode", False), ("exclusive", True), ("divisor_override", None))
AvgPool2D = _pool("AvgPool2D", F.avg_pool2d, (_K, *_AVG, ("data_format", "NCHW")), (4,), _SPR,
                  "Average pooling of ``[N, C, H, W]`` input.")
AvgPool3D = _pool("AvgPool3D", F.avg_pool3d, (_K, *_AVG, ("data_format", "NCDHW")), (5,), _SPR,
                  "Average pooling of ``[N, C, D, H, W]`` input.")
_LP = (("norm_type", _EMPTY), _K, ("stride", None), ("padding", 0), ("ceil_mode", False))
LPPool1D = _pool("LPPool1D", F.lp_pool1d, (*_LP, ("data_format", "NCL")), (3,), ("norm_type", *_SPR),
                 "``(sum x^p)^(1/p)`` pooling of ``[N, C, L]`` input.")
LPPool2D = _pool("LPPool2D", F.lp_pool2d, (*_LP, ("data_format", "NCHW")), (4,), ("norm_type", *_SPR),
                 "``(sum x^p)^(1/p)`` pooling of ``[N, C, H, W]`` input.")
_O = ("output_size", _EMPTY)
AdaptiveAvgPool1D = _pool("AdaptiveAvgPool1D", F.adaptive_avg_pool1d, (_O,), (3,), ("output_size",),
                          "Mean over ``output_size`` adaptive bins of ``[N, C, L]`` input.")
AdaptiveAvgPool2D = _pool("AdaptiveAvgPool2D", F.adaptive_avg_pool2d, (_O, ("data_format", "NCHW")), (4,),
                          ("output_size",), "Mean over adaptive bins of ``[N, C, H, W]`` input.")
AdaptiveAvgPool3D = _pool("AdaptiveAvgPool3D", F.adaptive_avg_pool3d, (_O, ("data_format", "NCDHW")), (5,),
                          ("output_size",), "Mean over adaptive bins of ``[N, C, D, H, W]`` input.")
_OM = (_O, ("return_mask", False))
AdaptiveMaxPool1D = _pool("AdaptiveMaxPool1D", F.adaptive_max_pool1d, _OM, (3,), ("output_size", "return_mask"),
                          "Max over adaptive bins of ``[N, C, L]`` input (``return_mask``: also the indices).")
AdaptiveMaxPool2D = _pool("AdaptiveMaxPool2D", F.adaptive_max_pool2d, _OM, (4,), ("output_size", "return_mask"),
                          "Max over adaptive bins of ``[N, C, H, W]`` input.")
AdaptiveMaxPool3D = _pool("AdaptiveMaxPool3D", F.adaptive_max_pool3d, _OM, (5,), ("output_size", "return_mask"),
                          "Max over adaptive bins of ``[N, C, D, H, W]`` input.")
_FR = (_O, ("kernel_size", None), ("random_u", None), ("return_mask", False))
FractionalMaxPool2D = _pool("FractionalMaxPool2D", F.fractional_max_pool2d, _FR, (4,), ("output_size", "return_mask"),
                            "Fractional max pooling of ``[N, C, H, W]`` input (see ``F.fractional_max_pool2d``; "
                            "without ``random_u`` each call draws ``u`` from this package's generator).")
FractionalMaxPool3D = _pool("FractionalMaxPool3D", F.fractional_max_pool3d, _FR, (5,), ("output_size", "return_mask"),
                            "Fractional max pooling of ``[N, C, D, H, W]`` input (see ``F.fractional_max_pool3d``).")
_UN = (_K, ("stride", None), ("padding", 0))  # Paddle shows only output_size
MaxUnPool1D = _pool("MaxUnPool1D", F.max_unpool1d, (*_UN, ("data_format", "NCL"), ("output_size", None)), (3,),
                    ("output_size",), "Inverse of MaxPool1D: ``layer(x, indices)`` scatters into zeros.")
MaxUnPool2D = _pool("MaxUnPool2D", F.max_unpool2d, (*_UN, ("data_format", "NCHW"), ("output_size", None)), (4,),
                    ("output_size",), "Inverse of MaxPool2D: ``layer(x, indices)`` scatters into zeros.")
MaxUnPool3D = _pool("MaxUnPool3D", F.max_unpool3d, (*_UN, ("data_format", "NCDHW"), ("output_size", None)), (5,),
                    ("output_size",), "Inverse of MaxPool3D: ``layer(x, indices)`` scatters into zeros.")
Unfold = _pool("Unfold", F.unfold, (("kernel_sizes", _EMPTY), ("dilations", 1), ("paddings", 0), ("strides", 1)),
               (4,), ("kernel_sizes", "dilations", "paddings", "strides"),
               "im2col: ``[N, C, H, W]`` -> ``[N, C * kH * kW, L]`` sliding blocks.")
Fold = _pool("Fold", F.fold, (("output_sizes", _EMPTY), ("kernel_sizes", _EMPTY), ("dilations", 1), ("paddings", 0),
                              ("strides", 1)), (3,), ("kernel_sizes", "dilations", "paddings", "strides"),
             "col2im: sums ``[N, C * kH * kW, L]`` blocks back into ``[N, C, H, W]``.")

# Paddle's lowercase-d names are the same classes
AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveAvgPool3d = AdaptiveAvgPool1D, AdaptiveAvgPool2D, AdaptiveAvgPool3D
AdaptiveMaxPool1d, AdaptiveMaxPool2d, AdaptiveMaxPool3d = AdaptiveMaxPool1D, AdaptiveMaxPool2D, AdaptiveMaxPool3D
LPPool1d, LPPool2d = LPPool1D, LPPool2D
MaxUnpool1d, MaxUnpool2d, MaxUnpool3d = MaxUnPool1D, MaxUnPool2D, MaxUnPool3D
