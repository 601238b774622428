"""Table talk: speech that is no command, for testing that the game ignores it.

A game played hands-free sits among people who talk: about the game ("I think
she has the ace"), about anything else ("pass me the salt"). None of it may act,
and little of it may even cause a question. :data:`SENTENCES` are ordinary
sentences heard at a card table (written for this project), :data:`SENTENCES_IT`
and :data:`SENTENCES_FR` the same talk at an Italian and a French table;
:func:`plan_chatter` speaks each in several voices, speeds and noise levels for
``python -m voice_spades.voice.testing.manifest --chatter``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from voice_spades.voice.testing.testspeech import SpeechParams

SENTENCES = (
    # about the game, with the game's own words
    "i think she has the ace", "i was sure you had the king", "nice play partner",
    "you always get the good cards", "that was a lucky hand", "we set them last hand",
    "don't lead hearts next time", "how many points do we need", "good game everyone",
    "we are going to lose this one", "he never counts the cards", "you are cheating",
    "that was a terrible trick", "let's play one more round after this",
    "your turn to shuffle next time", "she plays like a professional",
    "i should have bid more", "who dealt this mess",
    # anything else
    "what time is it", "pass me the salt", "who wants another drink",
    "did you see the game last night", "my back is killing me",
    "can you turn the music down", "we should order pizza", "i can't believe you did that",
    "where did i put my glasses", "the dog needs to go out", "is it raining outside",
    "let me get some more coffee", "how is your mother doing", "i have to leave at nine",
    "this chair is uncomfortable", "hold on a second", "somebody is at the door",
    "are we still going tomorrow", "i forgot to call my sister", "the kids are asleep finally",
    "do you want some cake", "what are we having for dinner", "i love this song",
    "open the window please", "the phone is ringing", "did anyone feed the cat",
    "tell me about your trip", "i need a new pair of shoes", "turn on the light",
    "it is getting late", "who is winning the football", "my coffee is cold", "this is fun",
    "where are the car keys", "what a beautiful day", "can i have a glass of water",
    "did you hear that noise", "i'm so tired tonight",
)
"""Ordinary sentences said at a card table, none of them a command."""

SENTENCES_IT = (
    # sulla partita, con le parole del gioco
    "secondo me ha lei l'asso", "ero sicuro che avessi il re", "bella giocata socio",
    "ti arrivano sempre le carte buone", "che mano fortunata", "li abbiamo battuti prima",
    "la prossima volta non uscire a cuori", "quanti punti ci mancano", "bella partita a tutti",
    "questa la perdiamo", "non conta mai le carte", "stai barando",
    "che presa terribile", "facciamo un'altra partita dopo questa",
    "la prossima volta mescoli tu", "gioca come un professionista",
    "dovevo dichiarare di più", "chi ha dato questo disastro",
    # tutt'altro
    "che ore sono", "mi passi il sale", "chi vuole un altro bicchiere",
    "hai visto la partita ieri sera", "mi fa male la schiena", "abbassa la musica per favore",
    "ordiniamo una pizza", "non ci posso credere", "dove ho messo gli occhiali",
    "il cane deve uscire", "piove fuori", "prendo ancora un po' di caffè",
    "come sta tua madre", "devo andare via alle nove", "questa sedia è scomoda",
    "aspetta un attimo", "suonano alla porta", "domani andiamo ancora al mare",
    "ho dimenticato di chiamare mia sorella", "finalmente i bambini dormono",
    "vuoi un po' di torta", "cosa si mangia stasera", "adoro questa canzone",
    "apri la finestra per favore", "squilla il telefono", "qualcuno ha dato da mangiare al gatto",
    "raccontami del tuo viaggio", "mi servono scarpe nuove", "accendi la luce",
    "si sta facendo tardi", "chi sta vincendo il campionato", "il mio caffè è freddo",
    "che divertimento", "dove sono le chiavi della macchina", "che bella giornata",
    "posso avere un bicchiere d'acqua", "hai sentito quel rumore", "sono stanchissimo stasera",
)
"""Le stesse chiacchiere a un tavolo italiano (written for this project)."""

SENTENCES_FR = (
    # sur la partie, avec les mots du jeu
    "je crois qu'elle a l'as", "j'étais sûr que tu avais le roi", "joli coup partenaire",
    "tu as toujours les bonnes cartes", "quelle main de chance",
    "on les a fait chuter tout à l'heure", "la prochaine fois n'entame pas à cœur",
    "combien de points il nous faut", "bonne partie à tous",
    "celle là on va la perdre", "il ne compte jamais les cartes", "tu triches",
    "quel pli affreux", "on refait une partie après celle ci",
    "c'est toi qui mélanges la prochaine fois", "elle joue comme une pro",
    "j'aurais dû demander plus", "qui a distribué ce désastre",
    # tout autre chose
    "quelle heure est il", "passe moi le sel", "qui veut un autre verre",
    "tu as vu le match hier soir", "j'ai mal au dos", "baisse la musique s'il te plaît",
    "on commande une pizza", "je n'arrive pas à y croire", "où ai je mis mes lunettes",
    "le chien doit sortir", "il pleut dehors", "je reprends un peu de café",
    "comment va ta mère", "je dois partir à neuf heures", "cette chaise n'est pas confortable",
    "attends une seconde", "on sonne à la porte", "on y va toujours demain",
    "j'ai oublié d'appeler ma sœur", "les enfants dorment enfin",
    "tu veux du gâteau", "qu'est ce qu'on mange ce soir", "j'adore cette chanson",
    "ouvre la fenêtre s'il te plaît", "le téléphone sonne", "quelqu'un a nourri le chat",
    "raconte moi ton voyage", "il me faut de nouvelles chaussures", "allume la lumière",
    "il se fait tard", "qui gagne le championnat", "mon café est froid",
    "c'est amusant", "où sont les clés de la voiture", "quelle belle journée",
    "je peux avoir un verre d'eau", "tu as entendu ce bruit", "je suis si fatigué ce soir",
)
"""Les mêmes bavardages à une table française (written for this project)."""

SENTENCES_BY_LANGUAGE = {"en": SENTENCES, "it": SENTENCES_IT, "fr": SENTENCES_FR}


def plan_chatter(count: int, voices: Sequence[str], speeds: Sequence[int],
                 pitches: Sequence[int], noise: Sequence[float], *, floor: float,
                 pad_seconds: float, seed: int = 1,
                 language: str = "en") -> list[tuple[str, SpeechParams]]:
    """``count`` clips of the language's sentences (:data:`SENTENCES_BY_LANGUAGE`),
    each sentence in turn, voices in turn (shifted every round, so a sentence meets
    different voices), speed, pitch and noise drawn at random; ``floor`` is the least
    noise any clip gets."""
    rng = random.Random(seed)
    sentences = SENTENCES_BY_LANGUAGE[language]
    clips = []
    for i in range(count):
        text = sentences[i % len(sentences)]
        voice = voices[(i + i // len(sentences)) % len(voices)]
        level = max(rng.choice(noise), floor)
        clips.append((text, SpeechParams(voice=voice, speed=rng.choice(speeds),
                                         pitch=rng.choice(pitches), noise=level,
                                         pad_seconds=pad_seconds, seed=10_000 + i)))
    return clips
