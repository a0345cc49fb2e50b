// DatabaseURL takes a text expression (§6.4).
DatabaseURL = 42
