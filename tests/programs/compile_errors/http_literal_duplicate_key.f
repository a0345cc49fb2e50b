http r = {'code': 200, 'code': 201}
