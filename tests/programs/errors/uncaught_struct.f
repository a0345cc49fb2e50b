// §10.10 an uncaught thrown struct renders as JSON on stderr
struct Problem {
    code:int
    detail:text
}
Problem p = {'code': 3, 'detail': 'bad "input"'}
throw p
