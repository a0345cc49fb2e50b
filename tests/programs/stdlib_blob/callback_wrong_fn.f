// .callback needs func[blob]:void (or img/aud): anything else is an error.
void func takesInt(x:int) {
    log(x)
}
blob b = 'fixture.txt'.callback(takesInt)
blob 'fixture.txt'
