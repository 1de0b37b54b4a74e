"""``paddle.cost_model``: ``CostModel``, which builds a small program, profiles programs and reads a table of
measured op times.

Paddle 3.3.1 ships a table of its own GPU benchmark times (``static_op_benchmark.json``) with ``CostModel``; those
are Paddle's kernels' times, not this package's, so no table is shipped here: ``static_cost_data()`` returns an
empty list and ``get_static_op_time`` finds no entry (``{}``), as Paddle does for an op its table lacks.
``profile_measure`` runs the programs under ``paddle.profiler`` on the device given.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["CostModel"]


class CostModel:
    """Build, profile and look up the cost of static programs."""

    def __init__(self) -> None:
        self._static_cost_data: list[dict[str, Any]] | None = None

    def build_program(self) -> tuple[Any, Any]:
        """Switch to static mode and build ``(startup_program, main_program)`` of a one-layer regression
        (input ``X`` of shape [None, 1], a 10-unit ``fc``, mean loss, SGD at 0.01); prints the main program."""
        from .. import optimizer, static
        from ..static import _mode

        _mode.enable_static()
        main_program, startup_program = static.Program(), static.Program()
        with static.program_guard(main_program=main_program, startup_program=startup_program):
            data = static.data(name="X", shape=[None, 1], dtype="float32")
            hidden = static.nn.fc(data, 10)
            loss = hidden.mean()
            optimizer.SGD(learning_rate=0.01).minimize(loss)
        print(f"main program is: {main_program}")
        return startup_program, main_program

    def profile_measure(self, startup_program: Any, main_program: Any, device: str = "gpu",
                        fetch_cost_list: Sequence[str] = ("time",)) -> None:
        """Run ``startup_program`` then ``main_program`` (fed ``X`` of shape [10, 1]) on ``device`` under the
        profiler."""
        from .. import profiler, static
        from .._runtime import device as _device

        if device not in ("gpu", "cpu"):
            raise ValueError(f"CostModel.profile_measure: device must be 'gpu' or 'cpu', but received {device!r}.")
        place = _device.set_device(device if device == "cpu" or _device.gpus() else "cpu")
        exe = static.Executor(place)
        exe.run(startup_program)
        p = profiler.Profiler()
        p.start()
        try:
            exe.run(main_program, feed={"X": np.random.random((10, 1)).astype("float32")}, fetch_list=[])
        finally:
            p.stop()

    def static_cost_data(self) -> list[dict[str, Any]]:
        """The table of measured op times: empty here (see the module)."""
        self._static_cost_data = []
        return self._static_cost_data

    def get_static_op_time(self, op_name: str, forward: bool = True, dtype: str = "float32") -> dict[str, Any]:
        """``{'op_time': ..., 'config': ...}`` of ``op_name`` for ``dtype`` from the table (forward or backward
        time), ``{}`` when the table has none."""
        if op_name is None:
            raise ValueError("CostModel.get_static_op_time: op_name should not be empty when you want to get "
                             "static op time; pass an op name such as 'matmul'.")
        if self._static_cost_data is None:
            raise AttributeError("CostModel.get_static_op_time: call static_cost_data() first to load the table.")
        op_cost: dict[str, Any] = {}
        for op_data in self._static_cost_data:
            if op_data["op"] == op_name and dtype in op_data["config"]:
                op_cost["op_time"] = op_data["paddle_gpu_time" if forward else "paddle_gpu_time_backward"]
                op_cost["config"] = op_data["config"]
        return op_cost
