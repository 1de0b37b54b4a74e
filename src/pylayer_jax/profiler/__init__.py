"""``paddle.profiler``: time training steps, record what ran, and export it (see ``_profiler.py``)."""

from ._profiler import Profiler as Profiler
from ._profiler import ProfilerState as ProfilerState
from ._profiler import ProfilerTarget as ProfilerTarget
from ._profiler import RecordEvent as RecordEvent
from ._profiler import SortedKeys as SortedKeys
from ._profiler import SummaryView as SummaryView
from ._profiler import TracerEventType as TracerEventType
from ._profiler import export_chrome_tracing as export_chrome_tracing
from ._profiler import export_protobuf as export_protobuf
from ._profiler import load_profiler_result as load_profiler_result
from ._profiler import make_scheduler as make_scheduler

__all__ = ["ProfilerState", "ProfilerTarget", "make_scheduler", "export_chrome_tracing", "Profiler", "RecordEvent",
           "SortedKeys", "SummaryView", "export_protobuf", "load_profiler_result"]
