// expect: 2:1 cannot assign to read-only 'environment'
environment['HOME'] = '/tmp'
