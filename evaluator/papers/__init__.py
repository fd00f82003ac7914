"""What NegHub takes from the papers behind its benchmarks in their own words: the quoted sentences (quotes.py)."""
