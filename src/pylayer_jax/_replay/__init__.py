"""Layer L3: replaying a repeated eager step from its note, behind the engine's event seam."""
