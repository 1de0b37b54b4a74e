"""Layer L4: the Tensor facade, apply_op (the one place arrays are wrapped), methods, saved-tensor hooks."""
