"""Step timing for ``paddle.profiler.Profiler``: each ``step()`` is timed from the step before (layer L6).

As Paddle's timer: the first 10 steps are warm-up, left out of the summary ``stop()`` prints (which needs more
than 10 steps); ``step_info()`` reports the averages since the last ``step_info()``. Unlike Paddle's, the summary's
max and min are the true max and min of the step times (Paddle's can print ``inf`` as the minimum).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

SKIP = 10  # warm-up steps left out of the summary


@dataclass
class _Records:
    total: float = 0.0
    max: float = 0.0
    min: float = float("inf")

    def add(self, v: float) -> None:
        self.total += v
        self.max = max(self.max, v)
        self.min = min(self.min, v)


@dataclass
class StepTimer:
    """The step times of one profiling run (``start()`` to ``stop()``)."""

    started: float = field(default_factory=time.perf_counter)
    steps: int = 0
    samples: int = 0
    per_samples: bool = True  # (False once a step is given no num_samples: speeds are then steps/s)
    unit: str = "samples/s"
    times: list[float] = field(default_factory=list)
    batch: _Records = field(default_factory=_Records)
    speed: _Records = field(default_factory=_Records)
    # since the last step_info()
    window_time: float = 0.0
    window_steps: int = 0
    window_samples: int = 0

    def step(self, num_samples: int | None) -> None:
        now = time.perf_counter()
        cost, self.started = now - self.started, now
        if num_samples is None:
            self.per_samples = False
            self.unit = "steps/s"
        self.steps += 1
        self.times.append(cost)
        self.window_time += cost
        self.window_steps += 1
        self.window_samples += num_samples or 0
        if self.steps > SKIP:
            self.batch.add(cost)
            if self.per_samples:
                self.samples += num_samples or 0
                self.speed.add((num_samples or 0) / cost if cost > 0 else 0.0)
            else:
                self.speed.add(1.0 / cost if cost > 0 else 0.0)

    def step_info(self, unit: str) -> str:
        msg = ""
        if self.window_steps:
            self.unit = f"{unit}/s" if self.per_samples else "steps/s"
            msg += f" batch_cost: {self.window_time / self.window_steps:.5f} s"
            if self.per_samples:
                ips = self.window_samples / self.window_time if self.window_samples and self.window_time else 0.0
            else:
                ips = self.window_steps / self.window_time if self.window_time else 0.0
            if ips:
                msg += f" ips: {ips:.3f} {self.unit}"
        self.window_time, self.window_steps, self.window_samples = 0.0, 0, 0
        return msg

    def summary_lines(self) -> list[str]:
        """What ``stop()`` prints: the table of the steps after the warm-up (nothing for 10 steps or fewer)."""
        n = self.steps - SKIP
        if n <= 0:
            return []
        avg = self.batch.total / n
        ips = (self.samples if self.per_samples else n) / self.batch.total if self.batch.total else 0.0

        def row(*cells: str) -> str:
            return "| " + " | ".join(c.center(15) for c in cells) + " |"

        return ["Perf Summary".center(100, "="), f"Time Unit: s, IPS Unit: {self.unit}", row("", "avg", "max", "min"),
                row("batch_cost", f"{avg:.5f}", f"{self.batch.max:.5f}", f"{self.batch.min:.5f}"),
                row("ips", f"{ips:.5f}", f"{self.speed.max:.5f}", f"{self.speed.min:.5f}")]
