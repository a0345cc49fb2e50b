// expect: 2:17 an environment variable name: cannot assign value of type int to text
log(environment[1])
