/** `negotiator` 1.x ships no types (DefinitelyTyped's are for 0.6, without `preferred`): the one call used, as koa-compress makes it. */
declare module 'negotiator' {
  export default class Negotiator {
    constructor(request: { readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>> });
    /** The encoding of `available` the request prefers; ties go to the first of `preferred`. */
    encoding(available: ReadonlyArray<string>, options?: { readonly preferred?: ReadonlyArray<string> }): string | undefined;
  }
}
