"""Players and their characters.

The player account lives here because, in Of the Dead, the character sheet *is* the
player's online account; KOLAPS characters and units follow in this app.
"""
