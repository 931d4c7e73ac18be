"""KOLAPS : GROUND ZERO: the rules catalogue and, later, its costing and resolvers."""
