"""Layer L0: process-wide JAX settings, dtypes, thread-local modes, the RNG key, Paddle's repr."""
