#!/usr/bin/env python3
"""How split.py splits known compounds and how often it wrongly splits common words, per language.

    python3 Benchmarks/decompound/check.py [--verbose] [--known both|split|keep]

Reads Sources/OfflineSearch/Text/Languages/CompoundParts+Words.swift. For each language:
- compounds: ~30 compounds with the expected parts (folded, without linking elements). A split is
  right when it has as many parts as expected and each part is the expected one, give or take a
  linking element at its end (kind+er = kinder); "head" counts splits whose last part is right.
- words: ~200 common words of 6 letters or more that are not compounds (derivations such as
  Mannschaft, verbs, adjectives included: they are what a splitter wrongly cuts). A false split is
  any split of one of them.
Both are run twice: splitting words that are themselves in the list ("split") and not ("keep").
The word lists are written here by hand for this check, not taken from any source.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from split import LINKS, MIN_WORD, fold, load_lists, split  # noqa: E402

SWIFT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Sources", "OfflineSearch", "Text",
                     "Languages", "CompoundParts+Words.swift")

COMPOUNDS = {
    "de": """fußballschuhe=fussball+schuhe hundehütte=hund+hutte haustür=haus+tur kinderwagen=kinder+wagen
        arbeitszimmer=arbeit+zimmer schweinebraten=schwein+braten sonnenbrille=sonne+brille handschuh=hand+schuh
        geburtstagsgeschenk=geburtstag+geschenk autobahn=auto+bahn schreibtisch=schreib+tisch
        waschmaschine=wasch+maschine bahnhof=bahn+hof krankenhaus=kranken+haus zahnbürste=zahn+burste
        flughafen=flug+hafen tischdecke=tisch+decke regenschirm=regen+schirm wasserflasche=wasser+flasche
        lebensmittel=leben+mittel staatsanwalt=staat+anwalt weihnachtsbaum=weihnacht+baum apfelsaft=apfel+saft
        schlafzimmer=schlaf+zimmer fahrradhelm=fahrrad+helm kaffeetasse=kaffee+tasse badezimmer=bad+zimmer
        liebesbrief=liebe+brief bücherregal=bucher+regal laufschuhe=lauf+schuhe
        straßenbahnhaltestelle=strassenbahn+haltestelle""",
    "nl": """eettafel=eet+tafel fietsenstalling=fiets+stalling ziekenhuis=zieken+huis voetbalschoenen=voetbal+schoenen
        huisdeur=huis+deur boekenkast=boek+kast kinderwagen=kinder+wagen tandenborstel=tand+borstel
        verjaardagstaart=verjaardag+taart koffiekopje=koffie+kopje slaapkamer=slaap+kamer badkamer=bad+kamer
        zonnebril=zonne+bril appelsap=appel+sap fietspad=fiets+pad hondenhok=hond+hok regenjas=regen+jas
        waterfles=water+fles treinstation=trein+station vliegveld=vlieg+veld schooltas=school+tas
        kerstboom=kerst+boom handschoen=hand+schoen tafellaken=tafel+laken zeilboot=zeil+boot
        bloemenwinkel=bloem+winkel stadhuis=stad+huis postkantoor=post+kantoor keukentafel=keuken+tafel
        levensverzekering=leven+verzekering""",
    "sv": """fotbollsskor=fotboll+skor skrivbord=skriv+bord hundkoja=hund+koja garderobsdörr=garderob+dorr
        barnvagn=barn+vagn arbetsrum=arbet+rum solglasögon=sol+glasogon tandborste=tand+borste
        flygplats=flyg+plats järnväg=jarn+vag sovrum=sov+rum kaffekopp=kaffe+kopp äppeljuice=appel+juice
        vattenflaska=vatten+flaska regnjacka=regn+jacka julgran=jul+gran badrum=bad+rum köksbord=kok+bord
        bokhylla=bok+hylla sjukhus=sjuk+hus tågstation=tag+station busshållplats=buss+hallplats matsal=mat+sal
        handduk=hand+duk fönsterkarm=fonster+karm kärleksbrev=karlek+brev födelsedagspresent=fodelsedag+present
        skolväska=skol+vaska cykelhjälm=cykel+hjalm blomsteraffär=blomster+affar dagstidning=dag+tidning
        husbil=hus+bil""",
    "da": """fodboldstøvler=fodbold+stovler hundehus=hund+hus skrivebord=skrive+bord barnevogn=barn+vogn
        soveværelse=sove+vaerelse arbejdsværelse=arbejd+vaerelse solbriller=sol+briller tandbørste=tand+borste
        lufthavn=luft+havn jernbane=jern+bane kaffekop=kaffe+kop æblejuice=aeble+juice vandflaske=vand+flaske
        regnjakke=regn+jakke juletræ=jul+trae badeværelse=bade+vaerelse køkkenbord=kokken+bord bogreol=bog+reol
        sygehus=syge+hus togstation=tog+station busstoppested=bus+stoppested spisestue=spise+stue
        håndklæde=hand+klaede vinduesramme=vindue+ramme kærlighedsbrev=kaerlighed+brev
        fødselsdagsgave=fodselsdag+gave skoletaske=skole+taske cykelhjelm=cykel+hjelm
        blomsterbutik=blomster+butik dagblad=dag+blad husbåd=hus+bad""",
    "no": """fotballsko=fotball+sko hundehus=hund+hus skrivebord=skrive+bord barnevogn=barn+vogn soverom=sove+rom
        arbeidsrom=arbeid+rom solbriller=sol+briller tannbørste=tann+borste flyplass=fly+plass jernbane=jern+bane
        kaffekopp=kaffe+kopp eplejuice=eple+juice vannflaske=vann+flaske regnjakke=regn+jakke juletre=jul+tre
        baderom=bade+rom kjøkkenbord=kjokken+bord bokhylle=bok+hylle sykehus=syke+hus togstasjon=tog+stasjon
        bussholdeplass=buss+holdeplass spisestue=spise+stue vindusramme=vindu+ramme
        kjærlighetsbrev=kjaerlighet+brev bursdagsgave=bursdag+gave skolesekk=skole+sekk
        sykkelhjelm=sykkel+hjelm blomsterbutikk=blomster+butikk dagblad=dag+blad husbåt=hus+bat""",
    "fi": """jalkapallokengät=jalkapallo+kengat koirankoppi=koiran+koppi kirjahylly=kirja+hylly
        hammasharja=hammas+harja lentokenttä=lento+kentta rautatie=rauta+tie kahvikuppi=kahvi+kuppi
        omenamehu=omena+mehu vesipullo=vesi+pullo sadetakki=sade+takki joulukuusi=joulu+kuusi
        kylpyhuone=kylpy+huone keittiöpöytä=keittio+poyta sairaalasänky=sairaala+sanky
        rautatieasema=rautatie+asema bussipysäkki=bussi+pysakki ruokasali=ruoka+sali käsipyyhe=kasi+pyyhe
        ikkunankehys=ikkunan+kehys rakkauskirje=rakkaus+kirje syntymäpäivälahja=syntymapaiva+lahja
        koululaukku=koulu+laukku kukkakauppa=kukka+kauppa sanomalehti=sanoma+lehti asuntovaunu=asunto+vaunu
        puhelinnumero=puhelin+numero tietokone=tieto+kone autotalli=auto+talli maailmanmestari=maailman+mestari
        lumiukko=lumi+ukko kotikaupunki=koti+kaupunki""",
}

WORDS = {
    "de": """regierung entwicklung geschichte mannschaft wirtschaft gesellschaft verantwortung möglichkeit sicherheit
        freiheit gesundheit erfahrung bedeutung beziehung forschung wohnung zeitung meinung richtung rechnung
        ordnung leistung hoffnung erinnerung bewegung vorstellung unterstützung veranstaltung verwaltung versicherung
        verbindung verkehr vertrag verfahren vergangenheit verhalten verhältnis verständnis ergebnis ereignis
        erlebnis gedächtnis geheimnis hindernis zeugnis bedürfnis gefängnis zustimmung unterschied unternehmen
        überraschung übersetzung untersuchung unterricht anfang abschnitt ausstellung beispiel gebäude gebiet
        gedanke gefühl gefahr gegend geschäft gesetz gespräch gewicht gewinn gewalt kirche schule straße sprache
        stimme stunde tochter bruder schwester mutter familie freund freundin lehrer lehrerin schüler student
        studentin arbeiter polizei politik politiker technik physik chemie biologie mathematik medizin theater
        konzert museum kultur umwelt wetter sommer winter frühling herbst januar februar oktober november dezember
        morgen kaffee zucker butter fleisch gemüse kartoffel tomate zwiebel banane orange zitrone schokolade kuchen
        brötchen frühstück getränk flasche teller messer löffel tasche koffer schlüssel fenster spiegel zimmer
        garten keller treppe decke schrank teppich computer telefon kamera drucker maschine schiff brücke gebirge
        landschaft wissenschaft bereitschaft eigenschaft herrschaft botschaft freundschaft nachbarschaft heimat
        krankheit schönheit wahrheit einheit mehrheit kindheit gelegenheit schwierigkeit tätigkeit fähigkeit
        wirklichkeit geschwindigkeit gerechtigkeit persönlichkeit öffentlichkeit bestellung lieferung zahlung
        kündigung anmeldung einladung entscheidung erklärung erziehung ernährung heizung kleidung werbung sammlung
        mischung prüfung wirkung zeichnung ausbildung bildung stellung haltung handlung behandlung verhandlung
        beratung bewerbung änderung förderung forderung sitzung lösung störung nutzung planung regelung rettung
        trennung sendung spannung angebot antwort anzeige auftrag ausgabe beitrag bericht betrieb bezirk einfluss
        eingang eintritt erfolg ersatz gebrauch gericht gesicht produkt projekt prozess qualität quelle rahmen
        schicksal schaden schatten schmerz schritt sekunde minute stimmung ursache urteil verlust versuch vorteil
        nachteil vorschlag zukunft zweifel absicht ansicht aussicht einsicht vorsicht gegenstand umstand zustand
        abstand verstand widerstand aufstand wichtig schnell langsam schwierig einfach natürlich wirklich
        vielleicht plötzlich deutlich freundlich gefährlich glücklich zusammen manchmal überall trotzdem deshalb
        außerdem erzählen bekommen verstehen beginnen gewinnen verlieren besuchen bezahlen erklären vergessen
        erinnern arbeiten spielen schreiben sprechen glauben verkaufen schlafen trinken bringen gehören brauchen""",
    "nl": """regering ontwikkeling geschiedenis vereniging verantwoordelijkheid mogelijkheid veiligheid vrijheid
        gezondheid ervaring betekenis betrekking onderzoek woning mening richting rekening ordening prestatie
        herinnering beweging voorstelling ondersteuning evenement bestuur verzekering verbinding verkeer verdrag
        procedure verleden gedrag verhouding begrip resultaat gebeurtenis beleving geheugen geheim hindernis
        behoefte gevangenis toestemming verschil onderneming verrassing vertaling onderwijs afdeling gebouw gebied
        gedachte gevoel gevaar omgeving winkel wetenschap vriendschap landschap eigenschap gemeenschap boodschap
        gezelschap ziekte schoonheid waarheid eenheid meerderheid gelegenheid moeilijkheid werkelijkheid snelheid
        gerechtigheid persoonlijkheid openbaarheid bestelling levering betaling aanmelding uitnodiging beslissing
        verklaring opvoeding voeding verwarming kleding reclame verzameling oefening werking tekening opleiding
        vorming houding handeling behandeling onderhandeling begeleiding sollicitatie verhoging verlaging
        verandering bevordering vordering vergadering oplossing storing gebruik planning regeling redding stroming
        scheiding uitzending spanning aanbod antwoord advertentie opdracht uitgave bijdrage bericht bedrijf
        district invloed ingang toegang succes vervanging gerecht gezicht product project proces kwaliteit kader
        computer schaduw minuut seconde stemming oorzaak oordeel verlies poging voordeel nadeel voorstel toekomst
        twijfel bedoeling uitzicht inzicht voorwerp toestand afstand verstand weerstand opstand familie vriend
        vriendin leraar lerares leerling student arbeider politie politiek politicus techniek muziek biologie
        medicijn theater concert museum cultuur natuur milieu winter herfst januari februari oktober november
        december morgen middag koffie suiker groente tomaat banaan citroen chocolade gebak ontbijt drankje flesje
        koffer sleutel venster spiegel kelder plafond tapijt telefoon televisie camera printer machine gebergte
        belangrijk langzaam moeilijk eenvoudig natuurlijk werkelijk misschien plotseling duidelijk vriendelijk
        gevaarlijk gelukkig heerlijk eerlijk overal vroeger daarom bovendien vertellen krijgen begrijpen beginnen
        winnen verliezen bezoeken betalen vergeten herinneren werken spelen schrijven spreken denken geloven
        rijden verkopen lachen huilen slapen drinken brengen zetten liggen zitten gebruiken openen sluiten wachten
        helpen volgen leiden blijven schijnen kennen moeten kunnen worden""",
    "sv": """regering utveckling historia förening ansvar möjlighet säkerhet frihet erfarenhet betydelse förhållande
        forskning lägenhet tidning riktning räkning ordning prestation rörelse föreställning evenemang förvaltning
        försäkring förbindelse trafik förfarande beteende förståelse resultat händelse upplevelse hemlighet
        fängelse skillnad företag överraskning översättning undersökning undervisning början avdelning
        utställning exempel byggnad område känsla vetenskap vänskap landskap egenskap gemenskap budskap sällskap
        sjukdom skönhet sanning majoritet barndom tillfälle svårighet verklighet hastighet personlighet
        offentlighet beställning leverans betalning anmälan inbjudan beslut förklaring uppfostran näring kläder
        reklam samling blandning övning teckning utbildning bildning ställning hållning handling behandling
        förhandling ansökan höjning sänkning förändring främjande fordran lösning störning användning planering
        reglering räddning separation sändning spänning erbjudande annons uppdrag utgåva bidrag rapport distrikt
        inflytande ingång tillgång framgång ersättning ansikte produkt projekt process kvalitet skugga smärta
        sekund stämning omdöme förlust försök fördel förslag tvivel avsikt utsikt insikt hänsyn föremål tillstånd
        avstånd förstånd motstånd uppror familj lärare lärarinna student arbetare politik politiker teknik
        biologi matematik medicin teater konsert museum kultur sommar vinter januari februari oktober november
        december morgon socker fläsk potatis apelsin citron choklad frukost flaska tallrik gaffel nyckel fönster
        spegel källare trappa telefon television kamera skrivare maskin fartyg viktig långsam verklig kanske
        plötsligt tydlig vänlig farlig lycklig härlig säkert tillsammans ibland överallt tidigare därför dessutom
        berätta behöva förstå börja förlora besöka betala förklara glömma arbeta spela skriva prata tänka tycka
        springa skratta dricka ställa tillhöra stänga hjälpa stanna känna""",
    "da": """regering udvikling historie forening ansvar mulighed sikkerhed frihed sundhed erfaring betydning forhold
        forskning lejlighed mening retning regning orden præstation erindring bevægelse forestilling
        arrangement forvaltning forsikring forbindelse trafik aftale   adfærd forståelse resultat begivenhed
        oplevelse hemmelighed fængsel samtykke forskel virksomhed overraskelse oversættelse undersøgelse
        undervisning begyndelse afdeling udstilling eksempel bygning område tanke følelse fare videnskab
        venskab landskab egenskab fællesskab budskab selskab sygdom skønhed sandhed enhed   barndom
        lejlighed vanskelighed virkelighed hastighed retfærdighed personlighed offentlighed bestilling levering
        betaling tilmelding invitation beslutning forklaring opdragelse ernæring opvarmning reklame samling
        blanding øvelse tegning uddannelse dannelse stilling holdning handling behandling forhandling
        rådgivning ansøgning forhøjelse sænkning forandring fremme fordring løsning forstyrrelse anvendelse
        planlægning regulering redning strømning adskillelse udsendelse spænding tilbud svar annonce opgave
        udgave bidrag rapport distrikt indflydelse indgang adgang succes erstatning ansigt produkt projekt proces
        kvalitet kilde ramme computer skygge smerte minut sekund stemning årsag dom tab forsøg fordel ulempe
        forslag fremtid tvivl hensigt udsigt indsigt hensyn genstand tilstand afstand forstand modstand oprør
        familie ven veninde lærer lærerinde elev studerende arbejder politi politik politiker teknik musik fysik
        kemi biologi matematik medicin teater koncert museum kultur natur miljø sommer vinter forår efterår
        januar februar oktober november december morgen aften   kaffe sukker smør kød  
        kartoffel tomat løg banan appelsin citron chokolade kage   flaske tallerken kniv gaffel ske taske
        kuffert nøgle vindue spejl værelse kælder trappe loft tæppe lampe telefon   kamera printer maskine
        motor skib havn bro bjerg vigtig hurtig langsom vanskelig enkel naturligvis virkelig måske pludselig
        tydelig venlig farlig lykkelig herlig ærlig sikkert sammen   overalt tidligere derfor desuden
        fortælle behøve forstå begynde vinde tabe besøge betale forklare glemme arbejde spille skrive tale tænke
        synes køre løbe købe sælge lave grine græde sove drikke bringe tage stille sidde stå tilhøre åbne lukke
        vente hjælpe følge lede blive hedde kende""",
    "no": """regjering utvikling historie forening ansvar mulighet sikkerhet frihet helse erfaring betydning forhold
        forskning leilighet mening retning regning orden prestasjon erindring bevegelse forestilling
        arrangement forvaltning forsikring forbindelse trafikk avtale   oppførsel forståelse resultat
        begivenhet opplevelse hemmelighet fengsel samtykke forskjell virksomhet overraskelse oversettelse
        undersøkelse undervisning begynnelse avdeling utstilling eksempel bygning område tanke følelse fare
        vitenskap vennskap landskap egenskap fellesskap budskap selskap sykdom skjønnhet sannhet enhet  
        barndom anledning vanskelighet virkelighet hastighet rettferdighet personlighet offentlighet bestilling
        levering betaling påmelding invitasjon beslutning forklaring oppdragelse ernæring oppvarming reklame
        samling blanding øvelse tegning utdanning dannelse stilling holdning handling behandling forhandling
        rådgivning søknad forhøyelse senkning forandring fremme fordring løsning forstyrrelse anvendelse
        planlegging regulering redning strømning atskillelse sending spenning tilbud annonse oppgave utgave
        bidrag rapport distrikt innflytelse inngang adgang suksess erstatning ansikt produkt prosjekt prosess
        kvalitet kilde ramme   skygge smerte minutt sekund stemning årsak forsøk fordel ulempe forslag
        fremtid tvil hensikt utsikt innsikt hensyn gjenstand tilstand avstand forstand motstand opprør familie
        venninne lærer lærerinne student arbeider politi politikk politiker teknikk musikk fysikk kjemi biologi
        matematikk medisin teater konsert museum kultur natur miljø sommer vinter januar februar oktober november
        desember morgen   kaffe sukker smør kjøtt   potet tomat banan appelsin sitron
        sjokolade kake frokost flaske tallerken gaffel nøkkel vindu speil kjeller trapp teppe lampe telefon
          kamera skriver maskin motor skip havn fjell viktig langsom vanskelig enkel naturligvis virkelig
        kanskje plutselig tydelig vennlig farlig lykkelig herlig ærlig sikkert sammen overalt tidligere derfor
        dessuten fortelle trenge forstå begynne vinne tape besøke betale forklare glemme arbeide spille skrive
        snakke tenke synes kjøre løpe kjøpe selge lage smile gråte sove drikke bringe sette sitte tilhøre åpne
        lukke vente hjelpe følge lede bli hete kjenne""",
    "fi": """hallitus kehitys historia yhdistys vastuu mahdollisuus turvallisuus vapaus terveys kokemus merkitys
        suhde tutkimus asunto sanomat mielipide suunta lasku järjestys suoritus muisto liike esitys tapahtuma
        hallinto vakuutus yhteys liikenne sopimus menettely menneisyys käytös ymmärrys tulos elämys salaisuus
        vankila suostumus erotus yritys yllätys käännös opetus alku osasto näyttely esimerkki rakennus alue
        ajatus tunne vaara tiede ystävyys maisema ominaisuus yhteisö viesti seura sairaus kauneus totuus
        yksikkö enemmistö lapsuus tilaisuus vaikeus todellisuus nopeus oikeus persoonallisuus julkisuus tilaus
        toimitus maksu ilmoittautuminen kutsu päätös selitys kasvatus ravinto lämmitys vaatteet mainos kokoelma
        sekoitus harjoitus piirustus koulutus sivistys asema asenne toiminta käsittely neuvottelu neuvonta
        hakemus korotus lasku muutos edistäminen vaatimus ratkaisu häiriö käyttö suunnittelu sääntely pelastus
        virtaus erottaminen lähetys jännitys tarjous vastaus ilmoitus tehtävä painos avustus raportti piiri
        vaikutus   pääsy menestys korvaus kasvot tuote projekti prosessi laatu lähde kehys
          varjo kipu minuutti sekunti tunnelma syy tuomio menetys yritys etu haitta ehdotus tulevaisuus
        epäilys aikomus näkymä näkemys huomio esine tila etäisyys järki   kapina perhe ystävä opettaja
        oppilas opiskelija   poliisi politiikka poliitikko tekniikka musiikki fysiikka kemia biologia
        matematiikka lääke teatteri konsertti museo kulttuuri luonto ympäristö kesä talvi kevät syksy  
                aamu ilta   kahvi sokeri voi liha vihannes peruna tomaatti
        sipuli banaani appelsiini sitruuna suklaa kakku aamiainen pullo lautanen veitsi haarukka lusikka laukku
          avain ikkuna peili huone kellari portaat katto matto lamppu puhelin televisio kamera
        tulostin kone moottori laiva satama silta vuori tärkeä nopea hidas vaikea helppo tietenkin todella
        ehkä yhtäkkiä selvä ystävällinen vaarallinen onnellinen ihana rehellinen varmasti yhdessä joskus kaikkialla
        aiemmin siksi lisäksi kertoa tarvita ymmärtää aloittaa voittaa hävitä vierailla maksaa selittää unohtaa
        muistaa tehdä pelata kirjoittaa puhua ajatella uskoa ajaa juosta ostaa myydä laittaa nauraa itkeä nukkua
        juoda tuoda ottaa asettaa istua seistä kuulua avata sulkea odottaa auttaa seurata johtaa jäädä tuntea""",
}


def parse(text):
    return [(word, parts.split("+")) for word, parts in (item.split("=") for item in text.split())]


def right(found, expected, links):
    if len(found) != len(expected):
        return False
    for part, want in zip(found, expected):
        longer, shorter = (part, want) if len(part) >= len(want) else (want, part)
        if not longer.startswith(shorter) or (longer != shorter and longer[len(shorter):] not in links):
            return False
    return True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--swift", default=SWIFT)
    args = parser.parse_args()
    lists = load_lists(args.swift)
    totals = {True: [0, 0, 0, 0, 0, 0], False: [0, 0, 0, 0, 0, 0]}
    for code in ("de", "nl", "sv", "da", "no", "fi"):
        parts, links = lists[code], LINKS[code]
        compounds = parse(COMPOUNDS[code])
        words = sorted({w for w in WORDS[code].split() if len(fold(w)) >= MIN_WORD})
        for split_known in (True, False):
            mode = "split" if split_known else "keep "
            good = head = 0
            lines = []
            for word, expected in compounds:
                found = split(word, parts, links, split_known)
                ok = right(found, [fold(p) for p in expected], links)
                good += ok
                head += len(found) > 1 and right(found[-1:], [fold(expected[-1])], links)
                lines.append(f"    {'ok ' if ok else 'NO '}{word} -> {'+'.join(found)}" + ("" if ok else f"   (want {'+'.join(expected)})"))
            false = [(w, split(w, parts, links, split_known)) for w in words]
            false = [(w, f) for w, f in false if len(f) > 1]
            t = totals[split_known]
            for i, v in enumerate((good, head, len(compounds), len(false), len(words), 0)):
                t[i] += v
            print(f"{code} {mode}: compounds right {good}/{len(compounds)} (last part right {head}), "
                  f"false splits {len(false)}/{len(words)} ({100 * len(false) / len(words):.1f} %)")
            if args.verbose and split_known:
                print("\n".join(lines))
            if args.verbose:
                print("    false: " + ", ".join(f"{w}->{'+'.join(f)}" for w, f in false))
    for split_known in (True, False):
        g, h, c, f, w, _ = totals[split_known]
        print(f"all {'split' if split_known else 'keep '}: compounds right {g}/{c} ({100 * g / c:.1f} %), last part right {h}, "
              f"false splits {f}/{w} ({100 * f / w:.1f} %)")


if __name__ == "__main__":
    main()
