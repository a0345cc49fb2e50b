// §7.1 tabs are whitespace
int	x	=	5
if x > 1 {
	if x > 2 {
		log('tabbed')
	}
}
log(x	*	2)
