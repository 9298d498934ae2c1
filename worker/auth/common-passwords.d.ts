/** The password list of @zxcvbn-ts/language-common (no types of its own for this file). */
declare module "@zxcvbn-ts/language-common/dist/passwords.json.mjs" {
  const passwords: string[];
  export default passwords;
}
