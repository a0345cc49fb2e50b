// §10.9 the subject may be a chain of field accesses
struct Ok {
    value:int
}
struct Err {
    reason:text
}
enum Result = Ok, Err
struct Job {
    name:text
    result:Result
}
Job j = {'name': 'build'}
Err e = {'reason': 'disk full'}
j.result = e
match j.result {
    'Ok' { log('fine') }
    'Err' { log(`${j.name} failed: ${j.result.reason}`) }
}
