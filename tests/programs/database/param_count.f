// The number of values must match the statement's parameters.
DatabaseURL = ':memory:'
sqlite('SELECT ?, ?', [1])
