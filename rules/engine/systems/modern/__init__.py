"""The untitled modern-era RPG: success dice, forcing, stress, attitudes per round, damage
through protection dice, character creation and chases."""
