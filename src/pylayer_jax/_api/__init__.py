"""Layer L5: Paddle's public functions over the op table (math, random, linalg, irregular signatures)."""
