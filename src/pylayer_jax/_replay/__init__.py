"""Replaying a repeated eager step from its note (layer L5).

The whole of step replay: ``events`` (the observer of the core's step events, ``_tensor.step_events``, and
``install``, which the package's ``__init__`` calls), ``follow`` (a step that follows its note; the records of a
note; the thread's state, ``Pos``) and ``note`` (taking the note of a step). Nothing below imports it: deleting
this package and the ``install`` call in ``pylayer_jax/__init__.py`` leaves eager dispatch whole.
"""
