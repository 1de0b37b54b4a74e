"""``paddle.inference``: run what ``paddle.jit.save`` (or ``paddle.static.save_inference_model``) wrote through a
predictor with named input and output handles (loaded on first use of ``pylayer_jax.inference``).

>>> import numpy as np
>>> import pylayer_jax as paddle
>>> from pylayer_jax import inference
>>> net = paddle.nn.Linear(3, 2)
>>> paddle.jit.save(net, "/tmp/doc_infer/net", [paddle.static.InputSpec([None, 3], "float32", "x")])
>>> predictor = inference.create_predictor(inference.Config("/tmp/doc_infer/net.json", "/tmp/doc_infer/net.pdiparams"))
>>> predictor.get_input_handle("x").copy_from_cpu(np.ones((4, 3), "float32"))
>>> predictor.run()
>>> predictor.get_output_handle(predictor.get_output_names()[0]).shape()
[4, 2]
"""

from ._config import Config as Config
from ._config import DataType as DataType
from ._config import PlaceType as PlaceType
from ._config import PrecisionType as PrecisionType
from ._config import XpuConfig as XpuConfig
from ._predictor import Predictor as Predictor
from ._predictor import PredictorPool as PredictorPool
from ._predictor import Tensor as Tensor
from ._predictor import convert_to_mixed_precision as convert_to_mixed_precision
from ._predictor import create_predictor as create_predictor
from ._predictor import get_num_bytes_of_data_type as get_num_bytes_of_data_type
from ._predictor import get_trt_compile_version as get_trt_compile_version
from ._predictor import get_trt_runtime_version as get_trt_runtime_version
from ._predictor import get_version as get_version

__all__ = ["Config", "XpuConfig", "DataType", "PlaceType", "PrecisionType", "Tensor", "Predictor", "PredictorPool",
           "create_predictor", "get_version", "get_num_bytes_of_data_type", "get_trt_compile_version",
           "get_trt_runtime_version", "convert_to_mixed_precision"]
