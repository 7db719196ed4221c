#!/usr/bin/env python3
"""Teaches a subword model to copy names and numbers: swaps the few names a corpus repeats for
many others, on both sides at once.

    scripts/augment-names.py SRC TGT OUT_SRC OUT_TGT [--share 0.5] [--seed 1]

SRC/TGT: a parallel corpus, one sentence a line (plain or .gz); the outputs are gzip. Tatoeba's
English sentences name "Tom" in 23% of its pairs and a handful of others (Mary, John, Boston,
London, …) in most of the rest that have a name, so a model trained on it learns to write "Tom"
and nothing about copying a name it never saw: it invents one instead ("Angela and Grzegorz" ->
"Cora und ein …"). Here, in a share of the pairs (--share), each such name that occurs exactly
as often, spelled the same, in the source and in the translation is replaced on both sides by
one drawn from the lists below (people for people, places for places), and each number written
the same on both sides by another number. A pair whose sides differ (German "Toms" for "Tom's",
"Maria" for "Mary") is left as it is. The lists hold names of many languages and scripts'
romanisations, with their diacritics; none of them is in bench/text/names-and-numbers.en, the
sentences the share of names kept is measured on. Deterministic for a seed.
"""
import argparse
import gzip
import random
import re

# The names Tatoeba repeats, which the swap replaces (a word of its own on both sides).
PEOPLE_TO_SWAP = ["Tom", "Mary", "John", "Alice", "Bob", "Jack", "Ken", "Mike", "Tony", "Jim"]
PLACES_TO_SWAP = ["Boston", "London", "Paris", "Chicago", "Tokyo", "Kyoto", "Osaka", "Sydney"]

# What they become.
PEOPLE = """
Abebe Adaeze Adriana Agnieszka Aigerim Ajay Akosua Aleksander Alejandro Alessia Alibek Amara
Amelie Anastasia Anders Andrzej Aniela Anouk Antoine Aoife Arash Arnav Asel Aurelio
Ayodele Aziz Babajide Barış Beatriz Bilal Bogdan Bongani Brigitte Caoimhe Carmen Catalina Cem
Chiara Chidi Chioma Ciarán Colm Dagny Dalia Damla Daniela Dariusz Dawit Deniz Desta Diego
Dorota Duc Efua Eilidh Elif Eliška Emeka Emre Enzo Esra Eszter Farah Faisal Farid Femi Filip
Finn Florin Francesca Gaspard Gideon Goran Greta Guadalupe Gunnar Gustavo Hamid Hana Hannu
Haruto Hassan Heike Helga Hiroshi Hoang Huda Ignacio Ikaika Ilse Imani Inés Ingrid Ioana Irina
Isidora Ivana Jakub Jamal Jana Javier Jelena Jiří Joaquín Jorge Józef Jovana Julien Jun Kaito
Kalani Kamala Kanye Karima Karolina Kasia Katarzyna Kemal Kenta Keoni Khalid Kirsi Kofi Kristín
Kwame Laila Lars Lautaro Leilani Lena Leonie Liang Lindiwe Liv Lorenzo Luana Luca Lucía
Ludmila Magnus Mahmoud Maiara Makena Malak Malika Manon Marek Mariam Marisol Marta Matías
Mehmet Mei Mette Mikael Milan Milena Ming Miroslav Moana Mohan Naledi Nasrin Natalia Nikolai
Nilufar Nkechi Noa Noor Nuno Obinna Oksana Oleksandr Omar Oscar Ottilie Özlem Pablo Paola
Pavel Petra Pilar Quang Radek Rahul Rania Rashid Renata Rhiannon Rohan Ruairí Rustam Sadia
Saoirse Sebastián Sekou Selin Seo-yeon Sergio Shira Sigrún Simona Siddharth Silvia Solveig
Sunita Takumi Tamar Tanvir Tariq Teodora Thabo Thanh Themba Timur Tomasz Tuğba Uchenna Ulla
Valentina Vasile Vikram Vilja Wanjiru Wiktoria Xiadani Yara Yasmin Yerlan Yevgenia Yohannes
Yuki Yusra Zainab Zanele Zdeněk Zeynep Zofia Żaneta Zuzana
""".split()
PLACES = """
Aarhus Accra Adelaide Almaty Alicante Antwerp Arequipa Asunción Baku Bamako Bergen Bilbao
Bologna Bordeaux Brno Bucharest Busan Cádiz Cali Cluj Coimbra Cork Córdoba Cusco Dakar Daegu
Debrecen Dresden Durban Edinburgh Eindhoven Esbjerg Faro Fukuoka Galway Gdynia Genoa Ghent Girona
Göteborg Granada Guadalajara Haifa Hanoi Helsinki Hobart Huế İzmir Jaipur Jakarta Kaunas Kazan
Kigali Kochi Košice Kraków Kumasi Kyiv Leeds León Liège Lille Lima Linz Ljubljana Lublin Luxor
Malmö Managua Medellín Mendoza Montevideo Montréal Nairobi Nantes Nicosia Niš Odense Oporto
Oulu Palermo Pécs Perth Plovdiv Pune Quito Recife Riga Rosario Rotterdam Samarkand Sapporo
Seville Sfax Split Tallinn Tampere Tartu Tbilisi Toulouse Trondheim Turku Ulaanbaatar Uppsala
Valencia Valparaíso Vilnius Vitória Wrocław Yerevan Zadar Zagreb Zaragoza
""".split()
NUMBER = re.compile(r"(?<![\w.,:])\d+(?![\w.,:]\d)")


def read_lines(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f]


def word(name):
    return re.compile(r"(?<!\w)" + re.escape(name) + r"(?!\w)")


def swap(source, target, rng, share):
    if rng.random() >= share:
        return source, target
    for names, choices in ((PEOPLE_TO_SWAP, PEOPLE), (PLACES_TO_SWAP, PLACES)):
        for name in names:
            pattern = word(name)
            count = len(pattern.findall(source))
            if count == 0 or count != len(pattern.findall(target)):
                continue
            other = rng.choice(choices)
            source = pattern.sub(other, source)
            target = pattern.sub(other, target)
    # Numbers written alike on both sides ("12 Jahren" for "12 years"), each swapped alike.
    numbers = set(NUMBER.findall(source))
    for number in sorted(numbers, key=len, reverse=True):
        pattern = re.compile(r"(?<![\w.,:])" + re.escape(number) + r"(?![\w.,:]\d|\d)")
        count = len(pattern.findall(source))
        if count == 0 or count != len(pattern.findall(target)):
            continue
        other = str(rng.choice([rng.randint(0, 9), rng.randint(10, 99), rng.randint(100, 9999)]))
        source = pattern.sub(other, source)
        target = pattern.sub(other, target)
    return source, target


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("src")
    parser.add_argument("tgt")
    parser.add_argument("out_src")
    parser.add_argument("out_tgt")
    parser.add_argument("--share", type=float, default=0.5, help="share of pairs swapped")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sources, targets = read_lines(args.src), read_lines(args.tgt)
    if len(sources) != len(targets):
        parser.error("%s has %d lines and %s %d" % (args.src, len(sources), args.tgt, len(targets)))
    rng = random.Random(args.seed)
    changed = 0
    with gzip.open(args.out_src, "wt", encoding="utf-8") as out_src, \
            gzip.open(args.out_tgt, "wt", encoding="utf-8") as out_tgt:
        for source, target in zip(sources, targets):
            new_source, new_target = swap(source, target, rng, args.share)
            changed += new_source != source
            out_src.write(new_source + "\n")
            out_tgt.write(new_target + "\n")
    print("augment-names: %d of %d pairs with names or numbers swapped" % (changed, len(sources)))


if __name__ == "__main__":
    main()
