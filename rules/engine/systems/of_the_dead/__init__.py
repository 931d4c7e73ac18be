"""Of the Dead: the pure rule functions of the campaign (RULES-NOTES O1-O6)."""
