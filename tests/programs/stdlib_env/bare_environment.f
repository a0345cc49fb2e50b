// expect: 2:10 'environment' cannot be used by itself; read a variable as environment.NAME or environment['NAME'] (§16.2)
text e = environment
