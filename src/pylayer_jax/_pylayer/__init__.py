"""Layer L5: PyLayer, its context and gradient slots, the eager and traced drivers, check_pylayer."""
