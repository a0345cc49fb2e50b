User u
free u
clear u
DatabaseURL = 'app.db'
blob 'big.dat'.callback(onLoaded)
img 'sprite.png'.callback(onImage)
aud('x.wav').callback(onSound)
blob data = 'file.bin'
http {'url': 'http://example.com', 'method': 'GET', 'callback': onDone}
http req = {'url': u.site}
{
    int scoped = 1
    log(scoped)
}
