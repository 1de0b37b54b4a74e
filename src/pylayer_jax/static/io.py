"""``paddle.static.io``: saving and loading programs and their variables, at Paddle's module path."""

from ._framework import is_persistable as is_persistable
from ._inference_model import load_inference_model as load_inference_model
from ._inference_model import save_inference_model as save_inference_model
from ._io import deserialize_persistables as deserialize_persistables
from ._io import deserialize_program as deserialize_program
from ._io import load_from_file as load_from_file
from ._io import load_program_state as load_program_state
from ._io import load_vars as load_vars
from ._io import normalize_program as normalize_program
from ._io import save_to_file as save_to_file
from ._io import save_vars as save_vars
from ._io import serialize_persistables as serialize_persistables
from ._io import serialize_program as serialize_program
from ._io import set_program_state as set_program_state
from ._save import load as load
from ._save import save as save
