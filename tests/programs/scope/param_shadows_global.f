// §6.7 a parameter may share a global's name; inside the function it is the parameter
text name = 'global'
text func echo(name:text) {
    return name
}
log(echo('param'))
log(name)
