http r = {'body': /x/}
