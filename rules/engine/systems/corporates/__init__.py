"""Corporates (cyberpunk RPG, combat and movement chapter): declared actions in five-segment
turns, shots, damage against soak, bursts, covering fire, criticals and cybernetics."""
