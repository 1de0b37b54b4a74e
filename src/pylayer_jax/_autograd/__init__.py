"""Layers L2-L3: tape nodes, saved values, the backward walk and its fused segments, grad modes."""
