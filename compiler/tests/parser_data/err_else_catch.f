else { log(1) }
catch (e:text) { }
if a { } else log(2)
