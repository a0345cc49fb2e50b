http r = {'url': 'http://x/', 'status': 200}
