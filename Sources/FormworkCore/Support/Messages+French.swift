/// French: every message of the host (`scripts/message-keys` lists the keys), with the same placeholders.
/// Typography: a no-break space before « : ; ? ! » is left to the reader's font (a plain space is written).
extension Messages {
    static let frenchTable: [String: String] = [
        "{0} must match {1}.":
            "{0} doit être identique à {1}.",
        "{0}: the rule '{1}' does not hold.":
            "{0} : la règle « {1} » n’est pas respectée.",
        "{0}: cannot read the file '{1}': {2} (a path is relative to the values file)":
            "{0} : impossible de lire le fichier « {1} » : {2} (un chemin est relatif au fichier de valeurs)",
        "{0}: '{1}' is not a regular file; give the path of the file to upload":
            "{0} : « {1} » n’est pas un fichier ordinaire ; indiquez le chemin du fichier à envoyer",
        "{0}: cannot read the file '{1}': {2}":
            "{0} : impossible de lire le fichier « {1} » : {2}",
        "{0} ('{1}')":
            "{0} (« {1} »)",
        "required field '{0}' has no value":
            "le champ obligatoire « {0} » n’a pas de valeur",
        "field '{0}' is required when {1}, and has no value":
            "le champ « {0} » est obligatoire quand {1}, et n’a pas de valeur",
        "the cell could not check the value ({0}); it is kept as typed":
            "la cellule n’a pas pu vérifier la valeur ({0}) ; elle est gardée telle que saisie",
        "yes":
            "oui",
        "y":
            "o",
        "no":
            "non",
        "n":
            "n",
        "Answer yes or no.":
            "Répondez oui ou non.",
        "{0} takes a whole number, such as 3.":
            "{0} attend un nombre entier, par exemple 3.",
        "{0} takes a number, such as 12.5.":
            "{0} attend un nombre, par exemple 12.5.",
        "Write a time such as 09:30.":
            "Écrivez une heure, par exemple 09:30.",
        "Write a date such as 2026-11-21, or 2026-11-21T09:30:00Z.":
            "Écrivez une date, par exemple 2026-11-21, ou 2026-11-21T09:30:00Z.",
        "'{0}' is not one of: {1}.":
            "« {0} » ne fait pas partie des choix : {1}.",
        "Choose one of: {0}.":
            "Choisissez parmi : {0}.",
        "Form: {0}. {1} fields to fill.":
            "Formulaire : {0}. {1} champs à remplir.",
        "Done. {0} fields filled.":
            "Terminé. {0} champs remplis.",
        "✓ {0} fields filled":
            "✓ {0} champs remplis",
        "Add another {0}? Type yes or no: ":
            "Ajouter un autre élément « {0} » ? Tapez oui ou non : ",
        "Add another {0}? (y/n) [n] › ":
            "Ajouter un autre élément « {0} » ? (o/n) [n] › ",
        "Answer y or n.":
            "Répondez o ou n.",
        "{0}: {1}":
            "{0} : {1}",
        "Page {0} of {1}":
            "Page {0} sur {1}",
        "Enter to finish":
            "Entrée pour terminer",
        "Enter for the next page":
            "Entrée pour la page suivante",
        ", or 'back' for page {0} of {1}: ":
            ", ou « back » pour la page {0} sur {1} : ",
        "Press Enter to go on, or type back.":
            "Appuyez sur Entrée pour continuer, ou tapez back.",
        "no value yet":
            "pas encore de valeur",
        "Warning: ":
            "Attention : ",
        "the cell of '{0}' failed ({1}); answer it as plain text":
            "la cellule de « {0} » a échoué ({1}) ; répondez en texte simple",
        "Field {0} of {1}: {2}: {3}. Read-only, skipped.":
            "Champ {0} sur {1} : {2} : {3}. En lecture seule, passé.",
        "(read-only)":
            "(lecture seule)",
        "(hidden)":
            "(masqué)",
        "{0} is required.":
            "{0} est obligatoire.",
        "{0} is required; it cannot be cleared.":
            "{0} est obligatoire ; il ne peut pas être effacé.",
        "Type the text. A line with a single full stop ends it; an empty first line keeps the current text.\n":
            "Tapez le texte. Une ligne avec un seul point le termine ; une première ligne vide garde le texte actuel.\n",
        "  (end with a line containing only .; Enter alone keeps the current text)\n":
            "  (terminez par une ligne ne contenant que . ; Entrée seule garde le texte actuel)\n",
        "Field {0} of {1}: {2}.":
            "Champ {0} sur {1} : {2}.",
        "Required.":
            "Obligatoire.",
        "Hint: {0}":
            "Aide : {0}",
        "Note: {0}":
            "Remarque : {0}",
        "Secure entry: what you type is not shown.":
            "Saisie protégée : ce que vous tapez n’est pas affiché.",
        "  (hidden as you type)":
            "  (masqué pendant la saisie)",
        "Expected: {0}.":
            "Attendu : {0}.",
        "Suggestions: {0}{1}. Any text is accepted.":
            "Suggestions : {0}{1}. Tout texte est accepté.",
        "  suggestions: {0}{1}":
            "  suggestions : {0}{1}",
        "Choices: ":
            "Choix : ",
        ". Answer with numbers or names separated by commas.":
            ". Répondez par des numéros ou des noms séparés par des virgules.",
        ". Answer with a number or a name.":
            ". Répondez par un numéro ou un nom.",
        "  (several: 1, 3)":
            "  (plusieurs : 1, 3)",
        "  (y/n)":
            "  (o/n)",
        "a time such as 09:30":
            "une heure, par exemple 09:30",
        "a date and time such as 2026-11-21T09:30:00Z":
            "une date et une heure, par exemple 2026-11-21T09:30:00Z",
        "a date such as 2026-11-21":
            "une date, par exemple 2026-11-21",
        ", from {0} to {1}":
            ", du {0} au {1}",
        "any date":
            "n’importe quelle date",
        "Write {0}.":
            "Écrivez {0}.",
        "A single minus sign clears the value.":
            "Un seul signe moins efface la valeur.",
        "  (- clears)":
            "  (- efface)",
        "Current value: {0}. ":
            "Valeur actuelle : {0}. ",
        "For example: {0}. ":
            "Par exemple : {0}. ",
        "Your answer, then Enter to {0}: ":
            "Votre réponse, puis Entrée pour {0} : ",
        "Not accepted: {0}":
            "Refusé : {0}",
        "{0} takes digits only.":
            "{0} n’accepte que des chiffres.",
        "{0} takes a number: digits and a decimal point.":
            "{0} attend un nombre : des chiffres et un séparateur décimal.",
        "{0} takes a phone number: digits, spaces and + - ( ) * #.":
            "{0} attend un numéro de téléphone : chiffres, espaces et + - ( ) * #.",
        "{0}: an e-mail address has no spaces.":
            "{0} : une adresse e-mail ne contient pas d’espace.",
        "{0}: a web address has no spaces.":
            "{0} : une adresse web ne contient pas d’espace.",
        "{0} takes ASCII characters only.":
            "{0} n’accepte que des caractères ASCII.",
        "a decimal number":
            "un nombre décimal",
        "a phone number":
            "un numéro de téléphone",
        "an e-mail address":
            "une adresse e-mail",
        "a web address":
            "une adresse web",
        "go":
            "valider",
        "finish":
            "terminer",
        "send":
            "envoyer",
        "search":
            "rechercher",
        "join":
            "rejoindre",
        "continue":
            "continuer",
        "Enter writes the values; Esc goes back to the form.":
            "Entrée écrit les valeurs ; Échap revient au formulaire.",
        "{0} pressed.":
            "{0} : activé.",
        "The button":
            "Le bouton",
        "{0} takes a number.":
            "{0} attend un nombre.",
        "{0}: at most {1} characters.":
            "{0} : {1} caractères au plus.",
        "{0}: at most {1} choices.":
            "{0} : {1} choix au plus.",
        "{0} {1} added.":
            "{0} {1} ajouté.",
        "{0} {1} removed.":
            "{0} {1} supprimé.",
        "Page {0} is not complete.":
            "La page {0} n’est pas complète.",
        "{0} {1}":
            "{0} {1}",
        "+ Add another {0}":
            "+ Ajouter : {0}",
        "− Remove {0} {1}":
            "− Supprimer : {0} {1}",
        "Next ▸":
            "Suivant ▸",
        "→ takes {0} · ":
            "→ prend {0} · ",
        "{0}suggestions (any text is accepted): {1}{2}":
            "{0}suggestions (tout texte est accepté) : {1}{2}",
        "choose":
            "choisir",
        "⚠ the cell failed ({0}); type the value as text":
            "⚠ la cellule a échoué ({0}) ; tapez la valeur en texte",
        "filter: ":
            "filtre : ",
        "type to filter":
            "tapez pour filtrer",
        "no choice matches":
            "aucun choix ne correspond",
        "{0} choices, ↑↓ to see more":
            "{0} choix, ↑↓ pour en voir plus",
        "Tab/↑↓ move · Esc cancel":
            "Tab/↑↓ déplacer · Échap annuler",
        "Enter new line · Tab next · Shift-Tab back · Esc cancel":
            "Entrée nouvelle ligne · Tab suivant · Maj-Tab précédent · Échap annuler",
        "↑↓ step · Tab next · Shift-Tab back · Esc cancel":
            "↑↓ pas · Tab suivant · Maj-Tab précédent · Échap annuler",
        "Space toggles · Tab/↑↓ move · Esc cancel":
            "Espace bascule · Tab/↑↓ déplacer · Échap annuler",
        "↑↓ move · type to filter · Enter choose · Esc close":
            "↑↓ déplacer · tapez pour filtrer · Entrée choisir · Échap fermer",
        "←→ choose · Enter list · Tab/↑↓ move · Esc cancel":
            "←→ choisir · Entrée liste · Tab/↑↓ déplacer · Échap annuler",
        "↑↓ move · Space toggles · type to filter · Tab next · Esc cancel":
            "↑↓ déplacer · Espace bascule · tapez pour filtrer · Tab suivant · Échap annuler",
        "←→ part · ↑↓ change · Tab next · Esc cancel":
            "←→ partie · ↑↓ changer · Tab suivant · Échap annuler",
        "Enter next · Tab/↑↓ move · Esc cancel":
            "Entrée suivant · Tab/↑↓ déplacer · Échap annuler",
        "Enter or Space activates · Tab/↑↓ move · Esc cancel":
            "Entrée ou Espace active · Tab/↑↓ déplacer · Échap annuler",
        "Review: ":
            "Vérification : ",
        "Write these values? Enter or y: write · Esc or n: back to the form · Ctrl-C: cancel":
            "Écrire ces valeurs ? Entrée ou o : écrire · Échap ou n : retour au formulaire · Ctrl-C : annuler",
        "… {0} more above":
            "… {0} de plus au-dessus",
        "{0} field needs attention.":
            "{0} champ demande votre attention.",
        "{0} fields need attention.":
            "{0} champs demandent votre attention.",
        "Error: ":
            "Erreur : ",
        "Back":
            "Précédent",
        "Next":
            "Suivant",
        " (optional)":
            " (facultatif)",
        "Remove {0} {1}":
            "Supprimer : {0} {1}",
        "Add {0}":
            "Ajouter : {0}",
        "Choose…":
            "Choisissez…",
        "There is a problem":
            "Il y a un problème",
        "There are {0} problems":
            "Il y a {0} problèmes",
        "on":
            "oui",
        "off":
            "non",
        "‹no date›":
            "‹aucune date›",
        "(disabled)":
            "(désactivé)",
        "‹none›":
            "‹aucun›",
        "‹no options›":
            "‹aucune option›",
        "{0} to {1}":
            "de {0} à {1}",
        "step {0}":
            "pas de {0}",
        "(no {0}s)":
            "(aucun élément : {0})",
        "This field could not be shown: its cell {0}.":
            "Ce champ n’a pas pu être affiché : sa cellule {0}.",
        "{0} {1} is after {2} {3}":
            "{0} {1} est après {2} {3}",
        "{0} {1} is before the earliest date {2} ({3})":
            "{0} {1} est avant la date la plus ancienne permise, {2} ({3})",
        "{0} {1} is after the latest date {2} ({3})":
            "{0} {1} est après la date la plus récente permise, {2} ({3})",
        "{0} is not in the expected form.":
            "{0} n’a pas la forme attendue.",
        "{0} must be {1}.":
            "{0} doit être {1}.",
        "{0} must be {1} or more.":
            "{0} doit être supérieur ou égal à {1}.",
        "{0} must be {1} or less.":
            "{0} doit être inférieur ou égal à {1}.",
        "{0} must be a multiple of {1}.":
            "{0} doit être un multiple de {1}.",
        "Choose at least {0} for {1}.":
            "Choisissez au moins {0} réponses pour {1}.",
        "Choose at most {0} for {1}.":
            "Choisissez au plus {0} réponses pour {1}.",
        "an e-mail address such as name@example.com":
            "une adresse e-mail, par exemple nom@example.com",
        "a web address starting with http:// or https://":
            "une adresse web commençant par http:// ou https://",
        "a telephone number":
            "un numéro de téléphone",
        "a UUID":
            "un UUID",
        "an address with a scheme, such as mailto:name@example.com or urn:isbn:0451450523":
            "une adresse avec un schéma, par exemple mailto:nom@example.com ou urn:isbn:0451450523",
        "a time of day such as 09:30":
            "une heure de la journée, par exemple 09:30",
        "{0} needs at least {1} character.":
            "{0} doit compter au moins {1} caractère.",
        "{0} needs at least {1} characters.":
            "{0} doit compter au moins {1} caractères.",
        "{0} takes at most {1} character.":
            "{0} compte au plus {1} caractère.",
        "{0} takes at most {1} characters.":
            "{0} compte au plus {1} caractères.",
        "plain text":
            "du texte brut",
        "an image":
            "une image",
        "Any file":
            "Tout fichier",
        "{0} or {1}":
            "{0} ou {1}",
        "{0}, at most {1}":
            "{0}, {1} au plus",
        "{0} MB":
            "{0} Mo",
        "{0} KB":
            "{0} Ko",
        "{0}: the file is {1}; this field takes {2}.":
            "{0} : le fichier fait {1} ; ce champ accepte : {2}.",
        "{0}: the file is of a type Formwork does not recognise (read from its content, not its name); this field takes {1}.":
            "{0} : le fichier est d’un type que Formwork ne reconnaît pas (d’après son contenu, pas son nom) ; ce champ accepte : {1}.",
        "{0}: the file is {1} (read from its content, not its name); this field takes {2}.":
            "{0} : le fichier est du type {1} (d’après son contenu, pas son nom) ; ce champ accepte : {2}.",
        "{0} byte":
            "{0} octet",
        "{0} bytes":
            "{0} octets",
        "contains a line break but '{0}' is single-line (use a text field)":
            "contient un saut de ligne, mais « {0} » tient sur une ligne (utilisez un champ texte)",
        "'{0}' is not one of {1}: {2}":
            "« {0} » ne fait pas partie de {1} : {2}",
        "'{0}' is not one of the choices: {1}":
            "« {0} » ne fait pas partie des choix : {1}",
        "is not a finite number":
            "n’est pas un nombre fini",
        "has '{0}', which is not one of {1}: {2}":
            "contient « {0} », qui ne fait pas partie de {1} : {2}",
        "has '{0}', which is not one of the choices: {1}":
            "contient « {0} », qui ne fait pas partie des choix : {1}",
        "lists a choice twice; each may be selected once":
            "contient deux fois le même choix ; chacun ne peut être choisi qu’une fois",
        "is a {0} but '{1}' is a {2}":
            "est de type {0}, mais « {1} » est de type {2}",
        "is {0}, below the minimum {1}":
            "vaut {0}, moins que le minimum {1}",
        "is {0}; it must be above {1}":
            "vaut {0} ; il doit être supérieur à {1}",
        "is {0}, above the maximum {1}":
            "vaut {0}, plus que le maximum {1}",
        "is {0}; it must be below {1}":
            "vaut {0} ; il doit être inférieur à {1}",
        "is {0}, not a whole number of steps of {1}":
            "vaut {0}, qui n’est pas un nombre entier de pas de {1}",
        "is {0}, not a whole number of steps of {1} from {2}":
            "vaut {0}, qui n’est pas un nombre entier de pas de {1} à partir de {2}",
        "has {0} item, fewer than the minimum {1}":
            "compte {0} élément, moins que le minimum {1}",
        "has {0} items, fewer than the minimum {1}":
            "compte {0} éléments, moins que le minimum {1}",
        "has {0} character, fewer than the minimum {1}":
            "compte {0} caractère, moins que le minimum {1}",
        "has {0} characters, fewer than the minimum {1}":
            "compte {0} caractères, moins que le minimum {1}",
        "has {0} item, more than the maximum {1}":
            "compte {0} élément, plus que le maximum {1}",
        "has {0} items, more than the maximum {1}":
            "compte {0} éléments, plus que le maximum {1}",
        "has {0} character, more than the maximum {1}":
            "compte {0} caractère, plus que le maximum {1}",
        "has {0} characters, more than the maximum {1}":
            "compte {0} caractères, plus que le maximum {1}",
        "item {0} must be a string, not {1}":
            "l’élément {0} doit être une chaîne, pas {1}",
        "'{0}' is not a date; write \"2026-11-21\", \"2026-11-21T09:30:00Z\" or a time alone, \"09:30\"":
            "« {0} » n’est pas une date ; écrivez \"2026-11-21\", \"2026-11-21T09:30:00Z\" ou une heure seule, \"09:30\"",
        "a string":
            "une chaîne",
        "one of {0}":
            "l’une des valeurs {0}",
        "true or false":
            "true ou false",
        "an integer":
            "un entier",
        "a number":
            "un nombre",
        "a date such as \"2026-11-21\" or \"2026-11-21T09:30:00Z\"":
            "une date, par exemple \"2026-11-21\" ou \"2026-11-21T09:30:00Z\"",
        "a list of strings":
            "une liste de chaînes",
        "a list of {0}":
            "une liste parmi {0}",
        "must be {0}, not {1}":
            "doit être {0}, pas {1}",
        "null":
            "null",
        "a boolean":
            "un booléen",
        "a list":
            "une liste",
        "an object":
            "un objet",
        "Your answers could not be saved just now; nothing was stored. Go back and try again in a moment.":
            "Vos réponses n’ont pas pu être enregistrées pour le moment ; rien n’a été conservé. Revenez en arrière et réessayez dans un instant.",
        "Your answers are saved":
            "Vos réponses sont enregistrées",
        "You are continuing a saved form":
            "Vous reprenez un formulaire enregistré",
        "This form changed since your answers were saved: check them before you send it. ":
            "Ce formulaire a changé depuis l’enregistrement de vos réponses : vérifiez-les avant de l’envoyer. ",
        "To come back to this form later, keep this link; it works until {0} (UTC). ":
            "Pour revenir plus tard à ce formulaire, gardez ce lien ; il fonctionne jusqu’au {0} (UTC). ",
        "Anyone who has the link can see these answers. Passwords and other secret answers are never saved.":
            "Toute personne qui a ce lien peut voir ces réponses. Les mots de passe et autres réponses secrètes ne sont jamais enregistrés.",
        "No such draft":
            "Brouillon introuvable",
        "This link does not open a saved form: check that it was copied whole. Drafts are deleted once they expire.":
            "Ce lien n’ouvre aucun formulaire enregistré : vérifiez qu’il a été copié en entier. Les brouillons sont supprimés à leur expiration.",
        "Store unavailable":
            "Stockage indisponible",
        "Saved forms cannot be read just now. Try again in a moment.":
            "Les formulaires enregistrés ne peuvent pas être lus pour le moment. Réessayez dans un instant.",
        "Draft expired":
            "Brouillon expiré",
        "This saved form expired on {0} (UTC); its answers were deleted. Fill in the form again.":
            "Ce formulaire enregistré a expiré le {0} (UTC) ; ses réponses ont été supprimées. Remplissez à nouveau le formulaire.",
        "Part of this form (cell '{0}') is not working just now. Try again in a moment.":
            "Une partie de ce formulaire (cellule « {0} ») ne fonctionne pas pour le moment. Réessayez dans un instant.",
        "No forms are served from this folder yet.":
            "Aucun formulaire n’est encore servi depuis ce dossier.",
        "The address could not be read: {0}.":
            "L’adresse n’a pas pu être lue : {0}.",
        "This page posts a form; send JSON to /api/forms/{0}/submissions.":
            "Cette page envoie un formulaire ; envoyez du JSON à /api/forms/{0}/submissions.",
        "The form could not be read: {0}.":
            "Le formulaire n’a pas pu être lu : {0}.",
        "This form was not sent from its page on this site, or your browser does not keep this site's cookie. Open the form again and send it from there.":
            "Ce formulaire n’a pas été envoyé depuis sa page sur ce site, ou votre navigateur ne garde pas le cookie de ce site. Ouvrez à nouveau le formulaire et envoyez-le depuis cette page.",
        "This page was open too long to be sent. Check your answers and send it again.":
            "Cette page est restée ouverte trop longtemps pour être envoyée. Vérifiez vos réponses et envoyez-la à nouveau.",
        "Your answers could not be saved just now; nothing was stored. Go back and send the form again in a moment.":
            "Vos réponses n’ont pas pu être enregistrées pour le moment ; rien n’a été conservé. Revenez en arrière et renvoyez le formulaire dans un instant.",
        "Not found":
            "Introuvable",
        "There is no such submission.":
            "Cette réponse n’existe pas.",
        "Your answers to {0} were received.":
            "Vos réponses à {0} ont bien été reçues.",
        "Thank you":
            "Merci",
        "Reference:":
            "Référence :",
        "Fill in the form again":
            "Remplir à nouveau le formulaire",
        "Save and continue later":
            "Enregistrer et continuer plus tard",
        "Submit":
            "Envoyer",
        "Form not found":
            "Formulaire introuvable",
        "There is no form “{0}” here.":
            "Il n’y a pas de formulaire « {0} » ici.",
        "See the forms":
            "Voir les formulaires",
        "{0}: not sent":
            "{0} : non envoyé",
        "Back to the form":
            "Retour au formulaire",
        "The server is busy. Try again in a moment.":
            "Le serveur est occupé. Réessayez dans un instant.",
    ]
}
