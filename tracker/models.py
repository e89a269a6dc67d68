"""Domain models: leagues, players, tournaments, hands and the chip ledger."""
