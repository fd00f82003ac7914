"""NegHub's leaderboard: re-scores every submission and builds the site's tables and charts."""
