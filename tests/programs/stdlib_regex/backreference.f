// There are no capture groups to refer back to (§8.15)
log(/(a)\1/.test('aa'))
