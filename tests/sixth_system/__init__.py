"""Duel, a game system that exists only in the tests, to prove the seam: two gunslingers
face each other; the close asks each player's result and the shots that hit; its settlement
keeps the hits as value destroyed; its standings rank by wins, then hits. Its whole
declaration is `campaign.py`; `tests/campaigns/test_sixth_system.py` registers it with one
line per registry (`register`) and plays it from campaign to standings."""
