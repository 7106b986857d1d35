import FormworkCore

/// The language of a request's pages and messages: negotiated once per request, by the adapter (`FormworkRoutes`),
/// from `?lang=` and `Accept-Language` against the form's languages (its own and its translations'), or against the
/// host's catalogues for a page of no form; then bound for the request as `FormService.language` (the form shown in
/// it) and `Messages.current` (the host's words in it, English when the host has no catalogue for it).
extension FormService {
    /// The language negotiated for the request being handled; nil outside one (the form then stays as written).
    @TaskLocal public static var language: String?

    /// The best language for `preferences` (best first: `LanguageTag.fromAcceptLanguage`): among the languages of
    /// the form `formID` when there is one, else among the host's catalogues; the form's own language or English
    /// when none matches.
    public func language(formID: String?, preferences: [String]) -> String {
        if let formID, let served = catalog.form(formID) { return served.form.language(for: preferences) }
        return LanguageTag.negotiate(preferences, available: Messages.all.map(\.language)) ?? "en"
    }

    /// The language of a request: `asked` (`?lang=`) first when it is a language tag, then `acceptLanguage`'s.
    public func language(formID: String?, acceptLanguage: String?, asked: String?) -> String {
        let served = formID.flatMap { catalog.form($0) }
        // A form in one language is in it whatever the request prefers (the negotiation can only pick it): the
        // header is not read, nor the form's list of languages made, for every page of such a form.
        if let served, served.form.translations.isEmpty { return served.form.language }
        var preferences = LanguageTag.fromAcceptLanguage(acceptLanguage ?? "")
        if let tag = asked.flatMap(LanguageTag.normalized) { preferences.insert(tag, at: 0) }
        if let served { return served.form.language(for: preferences) }
        return language(formID: nil, preferences: preferences)
    }

    /// `body` with the request's language bound (`language` and `Messages.current`).
    public static func inLanguage<T>(_ language: String, _ body: () async throws -> T) async rethrows -> T {
        try await $language.withValue(language) {
            try await Messages.$bound.withValue(Messages.catalogue(for: language) ?? .english) { try await body() }
        }
    }

    /// The form `formID` as the request's language shows it (its texts translated; ids, values and revision as they
    /// are).
    func served(_ formID: String) -> ServedForm? {
        guard let served = catalog.form(formID) else { return nil }
        guard let language = Self.language, language != served.form.language else { return served }
        return ServedForm(
            form: served.form.translated(to: language), path: served.path, revision: served.revision, document: served.document)
    }
}
