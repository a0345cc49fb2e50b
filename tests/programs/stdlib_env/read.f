// §16.2 environment.NAME and environment['NAME']: text, or null when unset
log(environment.PATH != null)
log(typeof environment.PATH)
log(environment.FESTINA_TEST_SURELY_UNSET_VARIABLE == null)
log(environment['PATH'] == environment.PATH)
text name = 'PA' + 'TH'
log(environment[name] != null)
log(environment[''] == null)
log(environment['A=B'] == null)
text missing = environment.FESTINA_TEST_SURELY_UNSET_VARIABLE
log(missing.length)
log(argv.length)
