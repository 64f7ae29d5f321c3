"""The word list of ``strokes-hershey``: common English words, typed for lnrnn by its authors (no list was
copied), under lnrnn's own MIT license. Lower case ASCII letters only, every letter of the alphabet in several
words; the Hershey lines capitalize, punctuate and add numbers themselves
(``hershey.line_text``)."""

WORDS = tuple("""
a about above across act add after again against age ago air all almost alone along already also always
am among an and animal another answer any appear are area arm around art as ask at away back bad ball
bank base be bear beat because bed been before began begin behind being believe below best better
between big bird black blue board boat body book both box boy bring brother brown build built burn busy
but buy by call came can car care carry case cat catch cause center certain chair change check child
city class clear close cloud cold color come common cook cool copy corn cost could count country course
cover cross cry cut dance dark day deep did different dinner do doctor does dog done door down dozen
draw dream dress drink drive dry during each early earth east easy eat edge egg eight either else end
enough even evening ever every example explain extra eye face fact fall family far farm fast father feel
feet few field fight fill final find fine finger finish fire first fish five fix floor flower fly follow
food foot for force forest form four fox free fresh friend from front fruit full game garden gave get
girl give glass go gold good got great green ground group grow had half hand happy hard has hat have he
head hear heart heat heavy help her here high hill him his hold hole home hope horse hot hour house how
hundred hunt idea if in inch island it job join jump just keep kind king knew know lake land large last
late laugh lay lazy lead learn least leave left leg less letter level lie life light like line list
listen little live long look lost lot love low made main make man many map mark may me mean meet men
middle might mile milk mind minute miss mix moon more morning most mother mountain move much music must
my name near need never new next night nine no noise north nose not note nothing now number ocean of off
often oil old on once one only open or order other our out over own page paint pair paper park part pass
past path pay people picture piece place plain plan plant play please point poor possible power press
pretty prize pull push put queen question quick quiet quite race rain ran reach read ready real red
remember rest rich ride right ring river road rock roll room root rope rose round row rule run sad safe
said sail salt same sand sat save saw say school science sea season seat second see seed seem sell send
sentence serve set seven shape share she ship shoe shop short should show side sign silver simple since
sing sister sit six size skin sky sleep slow small smell smile snow so soft soil some son song soon
sound south space speak special spell spring square stand star start state station stay step still stone
stop store story straight strange street strong study such sugar summer sun sure swim table tail take
talk tall teach team tell ten test than thank that the their them then there these they thick thin thing
think third this those though three through throw tie time tiny to today together told tomorrow too took
top touch toward town track trade train travel tree trip true try turn twelve two under until up upon us
use usual valley very view village visit voice vowel wait walk wall want warm was wash watch water wave
wax way we wear weather week weight well went were west what wheel when where which while white who
whole why wide wife wild will win wind window winter wish with without woman wonder wood word work world
would write wrong yard year yellow yes yet you young your zebra zero zone zoo
""".split())
