"""Layer L4: the Tensor facade (``facade``), ``apply_op`` the one place arrays are wrapped (``dispatch``), the
``backward``/``grad`` entry points (``backward_entry``), the methods, saved-tensor hooks, placement, DLPack."""
