/**
 * The learning modules shipped with the service (docs/api/reference.md): data,
 * not a store, so every content adapter serves the same text. Content is a
 * simple HTML fragment (h2, h3, p, ul, ol, li, strong, em only); rates and
 * returns in examples are stated as assumptions, never as current facts.
 */
import type { LearningModule } from './content.js';

/**
 * Write HTML readably in source, ship it compact: whitespace runs become one
 * space and whitespace around block tags disappears (inline tags keep theirs).
 */
const fragment = (strings: TemplateStringsArray, ...values: ReadonlyArray<string | number>): string =>
  String.raw({ raw: strings }, ...values)
    .replace(/\s+/g, ' ')
    .replace(/\s*(<\/?(?:h2|h3|p|ul|ol|li)>)\s*/g, '$1')
    .trim();

const learningModule = (category: LearningModule['category'], title: string, content: string): LearningModule =>
  Object.freeze({ category, title, content });

const CAREER: ReadonlyArray<LearningModule> = [
  learningModule(
    'career',
    'negotiating_your_first_salary',
    fragment`
      <h2>Negotiating your first salary</h2>
      <p>Your starting salary is the base that future raises, bonuses and retirement contributions are calculated
      from, so a few uncomfortable minutes of negotiation can pay off for decades. Most employers expect a
      counteroffer, and a polite, well-researched one rarely costs anyone the job.</p>
      <h3>How to prepare</h3>
      <ol>
        <li><strong>Research the market.</strong> Look up pay for the role, level and city in salary surveys, the
        Bureau of Labor Statistics occupational data, and the pay ranges that many states now require in job
        postings.</li>
        <li><strong>Know your number.</strong> Build your budget first so you know the salary that covers your
        expenses and debt payments, then set a target in the upper part of the market range.</li>
        <li><strong>Let the employer name a figure first</strong> when you can. If pressed, give a range whose
        bottom is a number you would be happy to accept.</li>
        <li><strong>Get the offer in writing</strong> and ask for a day or two to review it.</li>
        <li><strong>Counter with reasons.</strong> Point to your skills, internships, certifications or competing
        offers, not to your personal expenses.</li>
        <li><strong>Negotiate the whole package.</strong> If base pay is fixed, ask about a signing bonus, an
        earlier performance review, extra paid time off, remote days or tuition assistance.</li>
      </ol>
      <h3>Why a few thousand dollars matters</h3>
      <p>Suppose you receive an offer of $52,000 and negotiate it to $56,000. If you then receive a 3% raise every
      year, that $4,000 difference grows with each raise and adds up to roughly $45,900 of extra pay over ten
      years, before counting the larger 401(k) match a higher salary earns.</p>
      <p>When you accept, thank the recruiter, confirm the final terms in writing, and decide in advance where the
      extra money will go: high-interest debt, your emergency fund or retirement savings. A raise you plan for
      improves your finances; one you do not plan for tends to disappear into everyday spending.</p>
    `,
  ),
  learningModule(
    'career',
    'capturing_your_401k_match',
    fragment`
      <h2>Capturing your full 401(k) match</h2>
      <p>Many employers add money to your 401(k) when you contribute to it. That match is part of your pay, and
      contributing too little to receive all of it is like turning down a raise.</p>
      <h3>How a match works</h3>
      <p>A common formula is <em>50% of your contributions, up to 6% of your pay</em>. Imagine you earn $50,000
      a year:</p>
      <ul>
        <li>Contribute 6% ($3,000 a year) and your employer adds $1,500.</li>
        <li>Contribute only 3% ($1,500) and your employer adds $750, leaving $750 of free money unclaimed every
        year.</li>
      </ul>
      <p>Traditional 401(k) contributions come out of your pay before federal income tax, so contributing $3,000
      reduces your take-home pay by less than $3,000.</p>
      <h3>Steps to take</h3>
      <ol>
        <li>Find your plan's matching formula in the summary plan description or your benefits portal.</li>
        <li>Set your contribution at least to the percentage that earns the full match.</li>
        <li>Check the vesting schedule. Your own contributions are always yours, but employer contributions may
        vest over several years, and leaving early can forfeit the unvested part.</li>
        <li>Choose investments. If you are unsure, a low-cost target-date fund for your expected retirement year
        is a reasonable default.</li>
        <li>Turn on automatic yearly increases of 1% so your savings rate rises along with your raises.</li>
      </ol>
      <h3>Match first, even while paying off debt</h3>
      <p>Capturing the full match usually makes sense even while you pay down credit cards: an instant 50% or
      100% return on the matched dollars beats the interest rate on almost any debt. Above the match, send extra
      cash to high-interest balances before raising retirement contributions further.</p>
      <p>Avoid 401(k) loans and early withdrawals to pay debts. Withdrawals before age 59½ are generally taxed as
      income plus a 10% penalty, and a plan loan can come due quickly if you leave your job.</p>
    `,
  ),
  learningModule(
    'career',
    'handling_a_job_loss',
    fragment`
      <h2>Protecting your finances after a job loss</h2>
      <p>Losing a job is stressful, but the decisions you make in the first few weeks can keep a temporary gap in
      income from turning into long-term debt.</p>
      <h3>In the first week</h3>
      <ol>
        <li><strong>File for unemployment benefits</strong> with your state right away; benefits generally count
        from the date you apply, not the date you lost your job.</li>
        <li><strong>Review your final paycheck</strong> for unused vacation pay, severance terms and the date your
        health coverage ends.</li>
        <li><strong>Choose health coverage.</strong> Compare COBRA continuation coverage, a spouse's plan and the
        Health Insurance Marketplace. Losing job-based coverage opens a special enrollment period, and a lower
        income may qualify you for premium tax credits.</li>
        <li><strong>Build a bare-bones budget</strong> of housing, utilities, food, insurance, transportation and
        minimum debt payments.</li>
      </ol>
      <h3>Handling your debts</h3>
      <ul>
        <li>Keep paying at least the minimum on every account. A payment 30 or more days late can be reported to
        the credit bureaus and hurt your score for years.</li>
        <li>Call your lenders before you miss a payment. Many offer hardship programs that temporarily reduce
        payments or interest.</li>
        <li>Federal student loan borrowers can ask about unemployment deferment or an income-driven repayment
        plan, where a low income can mean a very low payment.</li>
        <li>Pause extra payments toward debt so your cash lasts longer, and resume them once you have a new
        income.</li>
      </ul>
      <h3>What to avoid</h3>
      <p>Resist cashing out your 401(k). Withdrawals before age 59½ are usually taxed as income plus a 10% penalty,
      so much of a withdrawal can disappear before you spend it. Leave the account where it is, or roll it into an
      IRA or your next employer's plan. Be cautious about covering everyday costs with credit cards; if you must,
      use the card with the lowest rate and check the balance every week.</p>
      <p>Once you are working again, rebuild your emergency fund first so the next surprise does not start the cycle
      over.</p>
    `,
  ),
];

const COLLEGE: ReadonlyArray<LearningModule> = [
  learningModule(
    'college',
    'filing_the_fafsa',
    fragment`
      <h2>Filing the FAFSA</h2>
      <p>The Free Application for Federal Student Aid (FAFSA) is the form the federal government, states and
      colleges use to award grants, work-study and federal student loans. Many schools also use it for their own
      scholarships, so file it even if you doubt you qualify for need-based aid.</p>
      <h3>Before you start</h3>
      <ul>
        <li>Create a StudentAid.gov account for the student and, if the student is dependent, for each parent who
        must provide information.</li>
        <li>Gather Social Security numbers, tax information from two years before the school year (the
        <em>prior-prior year</em>) and the current balances of savings and investment accounts.</li>
        <li>List every school you are considering; each one you add receives your information.</li>
      </ul>
      <h3>Step by step</h3>
      <ol>
        <li>File as soon as the form opens for your school year. Some state and college aid is limited and awarded
        first come, first served.</li>
        <li>Give consent for the IRS to share your tax data; without it, the application cannot be processed for
        federal aid.</li>
        <li>Check every deadline. The federal deadline falls at the end of the school year, but state and college
        deadlines are often much earlier.</li>
        <li>Review your FAFSA Submission Summary for errors and note your Student Aid Index (SAI), the number
        schools use to measure need.</li>
        <li>Respond quickly if a school selects you for verification and asks for documents.</li>
        <li>File again every year you are in school.</li>
      </ol>
      <h3>Reading your aid offer</h3>
      <p>Aid offers mix free money with money you must repay. Sort each offer into grants and scholarships, which
      you keep; work-study, which you earn; and loans, which you repay with interest. Subtract only the free money
      from the full cost of attendance to find your net price. If a school costs $32,000 a year and offers $14,000
      in grants and $5,500 in loans, your net price is $18,000, not $12,500.</p>
      <p>If your family's finances have changed since the tax year on the form, because of a job loss, medical bills
      or a divorce, contact the financial aid office and ask for a professional judgment review.</p>
    `,
  ),
  learningModule(
    'college',
    'borrowing_student_loans_wisely',
    fragment`
      <h2>Borrowing for college wisely</h2>
      <p>Student loans can make college possible, but the amount you borrow shapes your budget for a decade or
      more after graduation. The goal is to borrow only what you need, in the safest form available.</p>
      <h3>Use aid in this order</h3>
      <ol>
        <li>Grants and scholarships, including small local awards that fewer students apply for.</li>
        <li>Savings, family help and earnings from work-study or a part-time job.</li>
        <li>Federal Direct Subsidized loans, on which the government pays the interest while you are enrolled at
        least half time.</li>
        <li>Federal Direct Unsubsidized loans, which charge interest from the day they are paid out.</li>
        <li>Parent PLUS or private loans, only after comparing their terms carefully.</li>
      </ol>
      <p>Federal loans come with protections private loans usually lack: income-driven repayment, deferment and
      forbearance, and forgiveness programs such as Public Service Loan Forgiveness.</p>
      <h3>A simple borrowing limit</h3>
      <p>A widely used rule of thumb is to keep your total student debt below your expected first-year salary.
      Check it against a payment estimate: $30,000 borrowed at an assumed 6% rate on a standard 10-year plan costs
      about $333 a month and roughly $10,000 in total interest. Ask whether that payment fits a typical starting
      salary in your field alongside rent, transportation and savings.</p>
      <h3>Habits that shrink the balance</h3>
      <ul>
        <li>Accept less than the full loan offered when your budget allows; you can decline part of it.</li>
        <li>Pay the interest on unsubsidized loans while in school if you can. Unpaid interest can be added to
        your principal later, and then you pay interest on interest.</li>
        <li>Keep a list of every loan with its servicer, balance and rate. All your federal loans appear in your
        StudentAid.gov account.</li>
        <li>Graduate on time. Each extra semester adds both cost and months without a full-time salary.</li>
      </ul>
    `,
  ),
  learningModule(
    'college',
    'repaying_student_loans',
    fragment`
      <h2>Repaying your student loans</h2>
      <p>Most federal student loans give you a six-month grace period after you leave school or drop below half-time
      enrollment. Use that time to get organized rather than to forget about the loans.</p>
      <h3>Getting started</h3>
      <ol>
        <li>Log in to StudentAid.gov to see every federal loan and the servicer that manages it, and check your
        credit report for any private loans.</li>
        <li>Create an account with each servicer and confirm your contact information.</li>
        <li>Choose a repayment plan. The standard plan pays the loans off in about ten years with fixed payments and
        the least interest; income-driven plans tie your payment to your income and family size.</li>
        <li>Sign up for autopay. Many servicers offer a small interest-rate reduction for it, and you will never
        miss a due date.</li>
      </ol>
      <h3>Choosing a plan</h3>
      <p>If you can afford the standard payment, it usually costs the least overall. An income-driven plan makes
      sense when the standard payment would crowd out essentials, or when you work for a government or nonprofit
      employer and pursue Public Service Loan Forgiveness, which forgives the remaining balance after 120
      qualifying monthly payments. Income-driven plans require you to recertify your income, typically every year,
      so put the date on your calendar.</p>
      <h3>Paying them off faster</h3>
      <ul>
        <li>Ask your servicer to apply extra payments to the loan with the highest interest rate, the avalanche
        method, and not to push back your next due date.</li>
        <li>Refinancing federal loans into a private loan might lower your rate, but it permanently gives up federal
        protections such as income-driven repayment and forgiveness. Consider it only with a stable income and an
        emergency fund.</li>
        <li>Beware of companies that charge fees to enroll you in federal programs; you can apply for free through
        your servicer or StudentAid.gov.</li>
      </ul>
      <h3>If you struggle to pay</h3>
      <p>Contact your servicer before you fall behind. Deferment, forbearance or a switch to an income-driven plan
      are far better than default, which can lead to wage garnishment and the loss of your tax refunds.</p>
    `,
  ),
];

const ENTREPRENEURSHIP: ReadonlyArray<LearningModule> = [
  learningModule(
    'entrepreneurship',
    'separating_business_and_personal_finances',
    fragment`
      <h2>Separating business and personal money</h2>
      <p>Whether you run a side hustle or a growing company, mixing business and personal money makes it hard to
      know whether you are profitable, harder to file taxes, and riskier if the business ever faces a lawsuit or an
      audit.</p>
      <h3>Set up the basics</h3>
      <ol>
        <li><strong>Open a business checking account.</strong> Deposit every business payment there and pay every
        business expense from it.</li>
        <li><strong>Get an EIN</strong> from the IRS. It is free, and it lets you avoid giving clients your Social
        Security number.</li>
        <li><strong>Pick a structure.</strong> A sole proprietorship is simplest; an LLC can help separate business
        liabilities from your personal assets, but only if you keep the finances truly separate.</li>
        <li><strong>Use one card for business spending</strong> and pay it in full every month.</li>
        <li><strong>Pay yourself on purpose.</strong> Move a set amount from the business account to your personal
        account on a schedule, like a paycheck.</li>
      </ol>
      <h3>Keep records that work at tax time</h3>
      <ul>
        <li>Use bookkeeping software or a simple spreadsheet, and categorize transactions every week rather than
        once a year.</li>
        <li>Save receipts digitally; the IRS expects records that support every deduction.</li>
        <li>Keep a mileage log if you drive a personal vehicle for business.</li>
        <li>Review a monthly profit-and-loss summary: revenue minus expenses is what the business really earns.</li>
      </ul>
      <h3>A worked example</h3>
      <p>Maya earns $4,000 a month from freelance design and spends $600 on software and equipment. Because
      everything runs through one business account, she sees her $3,400 monthly profit at a glance. She moves 30%
      of that profit, $1,020, into a tax savings account, pays herself $2,000, and leaves the remaining $380 in the
      business as a cushion for slow months. When a client pays late, her personal bills are still covered.</p>
      <p>Clean separation also helps when you apply for a business loan: lenders want statements that show the
      business's own cash flow.</p>
    `,
  ),
  learningModule(
    'entrepreneurship',
    'planning_for_self_employment_taxes',
    fragment`
      <h2>Planning for self-employment taxes</h2>
      <p>When you work for an employer, taxes are withheld from every paycheck. When you work for yourself, nobody
      withholds anything, and a surprise tax bill in April is one of the most common ways new freelancers end up in
      debt.</p>
      <h3>What you owe</h3>
      <ul>
        <li><strong>Income tax</strong> on your net profit, at the same rates as wages.</li>
        <li><strong>Self-employment tax</strong> of 15.3% for Social Security and Medicare, covering both the
        employee and the employer share. It applies to 92.35% of your net earnings, and half of it is deductible
        when you calculate income tax.</li>
        <li><strong>State and local income tax</strong>, depending on where you live.</li>
      </ul>
      <h3>A worked example</h3>
      <p>Suppose your net profit for the year is $40,000. Self-employment tax applies to 92.35% of it, or $36,940,
      and 15.3% of $36,940 is about $5,652, before any income tax. That is why many advisers suggest setting aside
      25% to 30% of every payment you receive.</p>
      <h3>Paying as you go</h3>
      <ol>
        <li>Open a separate savings account for taxes and move your set-aside percentage into it every time a
        client pays you.</li>
        <li>Make quarterly estimated payments, generally due in mid-April, mid-June, mid-September and
        mid-January, with Form 1040-ES or your IRS online account.</li>
        <li>Use the safe harbor to avoid underpayment penalties: pay at least 90% of this year's tax, or 100% of
        last year's total tax (110% if your adjusted gross income was above $150,000).</li>
        <li>Lower your taxable profit legitimately by tracking business expenses such as equipment, software, a
        qualifying home office and business mileage.</li>
        <li>Consider a retirement plan for the self-employed, such as a SEP IRA or a solo 401(k), which can reduce
        taxable income while building savings.</li>
      </ol>
      <p>If you owe more than you can pay, file on time anyway. The penalty for not filing is much larger than the
      penalty for not paying, and the IRS offers payment plans.</p>
    `,
  ),
  learningModule(
    'entrepreneurship',
    'financing_a_small_business',
    fragment`
      <h2>Financing a small business without sinking into debt</h2>
      <p>A business often needs money before it makes money. How you fund those early months decides whether a slow
      start is an inconvenience or a personal financial crisis.</p>
      <h3>Start with the least risky money</h3>
      <ol>
        <li><strong>Your own savings</strong>, kept apart from your personal emergency fund. Decide in advance how
        much you can afford to lose.</li>
        <li><strong>Revenue from early customers.</strong> Pre-sales, deposits and a small first version of your
        product test demand before you spend heavily.</li>
        <li><strong>Grants and competitions</strong> run by local economic development offices, universities and
        nonprofits.</li>
        <li><strong>Microloans and SBA-backed loans.</strong> The U.S. Small Business Administration's microloan
        program offers loans of up to $50,000 through nonprofit lenders, often with free coaching.</li>
        <li><strong>Credit cards</strong> last, and only for short-term purchases you can repay within the grace
        period.</li>
      </ol>
      <h3>Understand what you sign</h3>
      <ul>
        <li>Most small-business loans require a <strong>personal guarantee</strong>: if the business cannot pay,
        you must, even if you formed an LLC.</li>
        <li>Compare loans by total cost, not by the monthly payment. Merchant cash advances and some online lenders
        quote factor rates or daily payments that can work out to very high annual rates.</li>
        <li>Read the prepayment terms; some lenders charge a fee for paying early.</li>
      </ul>
      <h3>Test the numbers before you borrow</h3>
      <p>Estimate your monthly break-even point: fixed costs divided by the profit each sale contributes. If your
      fixed costs are $3,000 a month and each sale brings in $60 after the cost of materials, you need 50 sales a
      month just to break even. Borrowing makes sense only with a realistic plan to exceed that number and repay
      the loan from business profits, not from your personal paycheck.</p>
      <p>Finally, keep your personal credit healthy. Lenders look at the owner's personal credit score for most
      young businesses, and high personal card balances can block funding just when you need it.</p>
    `,
  ),
];

const FINANCIAL_BASICS: ReadonlyArray<LearningModule> = [
  learningModule(
    'financial_basics',
    'building_a_50_30_20_budget',
    fragment`
      <h2>Building a 50/30/20 budget</h2>
      <p>A budget is a plan for your money before you spend it. The 50/30/20 rule is a simple starting point: split
      your take-home pay, what lands in your account after taxes and payroll deductions, into three groups.</p>
      <ul>
        <li><strong>50% for needs:</strong> rent or mortgage, utilities, groceries, insurance, transportation,
        child care and the minimum payments on all your debts.</li>
        <li><strong>30% for wants:</strong> dining out, streaming services, travel, hobbies and upgrades beyond the
        basics.</li>
        <li><strong>20% for savings and extra debt payments:</strong> your emergency fund, retirement savings beyond
        payroll contributions, and anything you pay above the minimum on your debts.</li>
      </ul>
      <h3>A worked example</h3>
      <p>With take-home pay of $3,200 a month, the targets are $1,600 for needs, $960 for wants and $640 for savings
      and debt payoff. If your needs actually total $1,900, the plan is telling you something: trim wants to $660
      for now, or lower fixed costs with a cheaper phone plan, a roommate or a refinanced loan.</p>
      <h3>Setting it up</h3>
      <ol>
        <li>Add up your monthly take-home pay. If your income varies, use a conservative average of the last several
        months.</li>
        <li>List three months of spending from your bank and card statements and label each item a need or a
        want.</li>
        <li>Compare your totals with the targets and adjust the categories that are furthest off.</li>
        <li>Automate the 20%: schedule transfers to savings and extra debt payments for the day after payday.</li>
        <li>Review the budget every month. A budget that reflects real life gets followed; one that is too strict
        gets abandoned.</li>
      </ol>
      <p>The percentages are a guide, not a law. While paying off high-interest credit cards, you might run a
      50/20/30 split for a while, sending 30% to debt until the balances are gone. In a high-cost city, needs may
      take more than half your pay. What matters is that every dollar has a job and that the savings-and-debt share
      is never zero.</p>
    `,
  ),
  learningModule(
    'financial_basics',
    'debt_avalanche_vs_snowball',
    fragment`
      <h2>Debt avalanche vs. debt snowball</h2>
      <p>Once you pay the minimum on every debt, where should your extra money go? The two most popular strategies
      give different answers, and both work far better than spreading extra payments at random.</p>
      <h3>The avalanche method</h3>
      <p>List your debts from the highest interest rate to the lowest. Pay the minimum on all of them and send every
      extra dollar to the highest-rate debt. When it is gone, roll its payment into the next one. The avalanche
      minimizes the total interest you pay and usually gets you debt-free soonest.</p>
      <h3>The snowball method</h3>
      <p>List your debts from the smallest balance to the largest and attack the smallest first. You pay somewhat
      more interest, but you close whole accounts quickly, and those early wins keep many people motivated to
      finish.</p>
      <h3>A worked example</h3>
      <p>Suppose you have $400 a month beyond your minimums and three debts:</p>
      <ul>
        <li>Credit card: $3,000 at 25% APR</li>
        <li>Store card: $600 at 15% APR</li>
        <li>Personal loan: $5,000 at 10% APR</li>
      </ul>
      <p>The snowball clears the store card first, within two months. The avalanche goes after the credit card
      first, because every $100 of that balance costs about $25 a year in interest, against about $15 on the store
      card and $10 on the loan. Over the full payoff the avalanche costs less; the snowball delivers the first
      paid-off account sooner.</p>
      <h3>Making either plan work</h3>
      <ol>
        <li>List every debt with its balance, APR and minimum payment.</li>
        <li>Choose a method and commit to it for at least six months.</li>
        <li>Automate the minimum on every account so you never pay a late fee.</li>
        <li>Send the extra payment to your target debt right after payday.</li>
        <li>Stop adding new charges to the cards you are paying down.</li>
        <li>When a debt is paid off, add its whole payment to the next target instead of spending it.</li>
      </ol>
      <p>Some people use a hybrid: knock out one tiny balance for a quick win, then switch to the avalanche. The best
      plan is the one you will stick with.</p>
    `,
  ),
  learningModule(
    'financial_basics',
    'understanding_your_credit_score',
    fragment`
      <h2>Understanding your credit score</h2>
      <p>A credit score is a three-digit number, usually between 300 and 850, that estimates how likely you are to
      repay borrowed money. Lenders, landlords and insurers use it, and a higher score generally means lower
      interest rates.</p>
      <h3>What goes into a FICO score</h3>
      <ul>
        <li><strong>Payment history (about 35%):</strong> whether you pay on time. One payment 30 or more days late
        can hurt your score for years.</li>
        <li><strong>Amounts owed (about 30%):</strong> especially your credit utilization, the share of your card
        limits you are using.</li>
        <li><strong>Length of credit history (about 15%):</strong> the age of your oldest account and the average
        age of all of them.</li>
        <li><strong>New credit (about 10%):</strong> recent applications and newly opened accounts.</li>
        <li><strong>Credit mix (about 10%):</strong> experience with both revolving credit, such as cards, and
        installment loans.</li>
      </ul>
      <h3>Credit utilization in practice</h3>
      <p>If your cards have a combined limit of $5,000 and your statement balances total $1,500, your utilization is
      30%. Keeping it under 30%, and ideally under 10%, helps your score. Issuers usually report your statement
      balance, so paying down a card before the statement closes lowers your reported utilization even if you
      always pay in full.</p>
      <h3>Steps to improve your score</h3>
      <ol>
        <li>Set up automatic minimum payments on every account so nothing is ever late.</li>
        <li>Pay down revolving balances, starting with the cards closest to their limits.</li>
        <li>Keep old cards open, especially those without an annual fee, to preserve your history and available
        credit.</li>
        <li>Apply for new credit only when you need it.</li>
        <li>Check your reports from Equifax, Experian and TransUnion for free at AnnualCreditReport.com and dispute
        any errors.</li>
      </ol>
      <p>Checking your own score does not lower it. Late payments generally stay on your report for seven years, but
      their effect fades as you add a record of on-time payments.</p>
    `,
  ),
];

const INVESTING: ReadonlyArray<LearningModule> = [
  learningModule(
    'investing',
    'the_power_of_compound_interest',
    fragment`
      <h2>The power of compound interest</h2>
      <p>Compound interest means earning returns on your past returns, not only on the money you put in. Over long
      periods it can do more of the work than your contributions, and the same math works against you when you
      carry high-interest debt.</p>
      <h3>How it grows</h3>
      <p>Invest $10,000 and earn an assumed 7% a year. After one year you have $10,700; in the second year you earn
      7% on $10,700, not on $10,000. Left alone for 30 years, the money grows to about $76,000 without another
      dollar added. The 7% is only an illustration: real returns vary from year to year and are never
      guaranteed.</p>
      <h3>Why starting early matters</h3>
      <p>Compare two savers who each invest $300 a month and earn the same assumed 7% average return until age
      65:</p>
      <ul>
        <li>Jordan starts at 25, contributes $144,000 over 40 years and ends with roughly $787,000.</li>
        <li>Sam starts at 35, contributes $108,000 over 30 years and ends with roughly $366,000.</li>
      </ul>
      <p>Jordan put in only $36,000 more but ended with more than twice as much, because the early dollars had ten
      extra years to compound.</p>
      <h3>The rule of 72</h3>
      <p>Divide 72 by an annual rate to estimate how many years it takes money to double: about 12 years at 6%,
      about 8 years at 9%. Apply it to debt and the picture changes: a credit card balance at 24% roughly doubles in
      three years if you make no payments.</p>
      <h3>Putting compounding on your side</h3>
      <ol>
        <li>Pay off high-interest debt, which compounds against you faster than most investments compound for
        you.</li>
        <li>Start investing early, even with small amounts.</li>
        <li>Automate contributions so they happen every payday.</li>
        <li>Reinvest dividends and interest instead of cashing them out.</li>
        <li>Keep fees low: a fee comes out of your return every year, so it compounds too.</li>
      </ol>
    `,
  ),
  learningModule(
    'investing',
    'index_funds_and_diversification',
    fragment`
      <h2>Index funds and diversification</h2>
      <p>You do not need to pick winning stocks to build wealth. For most people, the simplest and cheapest approach
      is to own a broad slice of the whole market through index funds.</p>
      <h3>What an index fund is</h3>
      <p>An index fund is a mutual fund or exchange-traded fund (ETF) that holds the securities in a market index,
      such as an index of the 500 largest U.S. companies or of the total U.S. stock market. Instead of paying
      managers to guess which stocks will do best, you simply own the market, which keeps costs low.</p>
      <h3>Why diversification matters</h3>
      <p>A single company can fail; a fund that holds thousands of companies spreads that risk so no single failure
      can sink your savings. Spreading money across U.S. stocks, international stocks and bonds smooths the ride
      further. Stocks have historically grown more over long periods but sometimes fall sharply; bonds usually grow
      more slowly and fall less.</p>
      <h3>Fees compound too</h3>
      <p>The expense ratio is the yearly fee a fund charges as a percentage of your balance. On $100,000, a fund
      charging 0.03% costs $30 a year, while one charging 1% costs $1,000. Over 30 years, assuming a 7% return
      before fees, that difference can grow into a gap of roughly $180,000.</p>
      <h3>Getting started</h3>
      <ol>
        <li>Use tax-advantaged accounts first: your 401(k) up to the match, then an IRA.</li>
        <li>Pick a simple mix. A single target-date index fund, or a total U.S. stock fund plus a total
        international fund plus a bond fund, covers thousands of securities.</li>
        <li>Match the mix to your timeline: money you need within about five years does not belong in stocks.</li>
        <li>Invest automatically every month; a fixed amount buys more shares when prices are low.</li>
        <li>Rebalance about once a year back to your target mix, and avoid selling in a panic when markets
        drop.</li>
      </ol>
      <p>Past performance never guarantees future results, but low costs, broad diversification and patience are the
      parts of investing you can control.</p>
    `,
  ),
  learningModule(
    'investing',
    'investing_vs_paying_off_debt',
    fragment`
      <h2>Investing or paying off debt: which comes first?</h2>
      <p>Every spare dollar can either reduce a debt or be invested. Paying off a debt earns a guaranteed return
      equal to its interest rate, while investment returns are uncertain. That comparison, plus a safety cushion,
      gives a practical order of priorities.</p>
      <h3>A common order of priorities</h3>
      <ol>
        <li><strong>Keep every account current.</strong> Late fees and credit damage wipe out any investment
        gain.</li>
        <li><strong>Build a starter emergency fund</strong> of about $1,000 or one month of expenses, so a car
        repair does not land on a credit card.</li>
        <li><strong>Capture your full employer 401(k) match.</strong> An instant 50% or 100% match beats the
        interest rate on any debt.</li>
        <li><strong>Pay off high-interest debt,</strong> such as credit cards and personal loans with double-digit
        rates, using the avalanche or snowball method.</li>
        <li><strong>Finish your emergency fund</strong> at three to six months of essential expenses.</li>
        <li><strong>Then divide extra money</strong> between moderate-rate debt and long-term investing.</li>
      </ol>
      <h3>The gray zone</h3>
      <p>For moderate-rate debts, such as many car loans, student loans and mortgages, there is no single right
      answer. If the after-tax interest rate is clearly above what you could reasonably expect from a diversified
      portfolio over time, lean toward paying the debt; if it is well below, lean toward investing, especially in
      tax-advantaged accounts. In between, splitting the money is reasonable, and the peace of mind of being
      debt-free counts too.</p>
      <h3>A worked example</h3>
      <p>Alex has $500 a month to spare, a credit card balance at 22% APR and a student loan at 5%. Every dollar
      sent to the card earns a guaranteed 22%, well above the long-run average return of the stock market. Once the
      card is paid off, Alex sends $250 a month to extra student loan payments and $250 to an IRA.</p>
      <h3>Mistakes to avoid</h3>
      <ul>
        <li>Stopping retirement contributions entirely and losing the match.</li>
        <li>Draining all your savings to pay debt, then relying on cards for the next emergency.</li>
        <li>Borrowing from your 401(k) to pay off cards, then running the balances back up.</li>
      </ul>
    `,
  ),
];

const MAJOR_MILESTONES: ReadonlyArray<LearningModule> = [
  learningModule(
    'major_milestones',
    'buying_your_first_home',
    fragment`
      <h2>Buying your first home</h2>
      <p>A home is the largest purchase most people make, and the months before you apply for a mortgage are when
      your debt decisions matter most. Lenders look closely at your credit score, your savings and your
      debt-to-income ratio.</p>
      <h3>How much house you can afford</h3>
      <p>A common guideline is the 28/36 rule: housing costs, meaning principal, interest, property taxes and
      insurance, should stay under 28% of your gross monthly income, and all debt payments together under 36%. With
      a gross income of $90,000 a year, or $7,500 a month, that means about $2,100 for housing and $2,700 for all
      debts. If your car and student loan payments already total $900, your housing budget shrinks to about
      $1,800.</p>
      <h3>Cash you will need</h3>
      <ul>
        <li><strong>Down payment.</strong> Some loans allow as little as 3% to 3.5% down, but a conventional loan
        with less than 20% down usually requires private mortgage insurance (PMI). On a $300,000 home, 20% is
        $60,000.</li>
        <li><strong>Closing costs</strong> of roughly 2% to 5% of the loan amount for the appraisal, title, lender
        fees and prepaid items.</li>
        <li><strong>Reserves</strong> for moving, furniture and the repairs every home eventually needs, while your
        emergency fund stays intact.</li>
      </ul>
      <h3>Steps in the year before you buy</h3>
      <ol>
        <li>Check your credit reports and fix errors early.</li>
        <li>Pay down credit card balances to lower your utilization and your debt-to-income ratio.</li>
        <li>Avoid opening new accounts or financing large purchases such as a car.</li>
        <li>Keep your employment steady and your bank statements tidy; lenders ask about large unexplained
        deposits.</li>
        <li>Get preapproved and compare offers from at least three lenders within a few weeks, since scoring models
        count several mortgage inquiries in a short window as one. Compare the Loan Estimates and APRs, not only the
        monthly payment.</li>
        <li>Ask your state housing finance agency about first-time buyer programs and down payment assistance.</li>
      </ol>
      <p>Owning costs more than the mortgage: budget about 1% of the home's value each year for maintenance.</p>
    `,
  ),
  learningModule(
    'major_milestones',
    'combining_finances_as_a_couple',
    fragment`
      <h2>Combining finances as a couple</h2>
      <p>Moving in together or getting married is a good time to talk openly about money. Couples who share their
      numbers and agree on a system argue less about money and reach their goals faster.</p>
      <h3>Start with full disclosure</h3>
      <ol>
        <li>Share your incomes, savings, debts and credit reports. A surprise debt is much harder to handle after a
        wedding than before it.</li>
        <li>Talk about habits and goals: how each of you feels about debt, saving, giving and spending on big
        items.</li>
        <li>Agree on a dollar amount above which you check with each other before buying.</li>
      </ol>
      <h3>Choose a system</h3>
      <ul>
        <li><strong>Fully joint:</strong> all income goes into shared accounts. Simple and transparent, but it
        requires agreement on spending.</li>
        <li><strong>Separate:</strong> each partner keeps their own accounts and splits shared bills. Independence is
        preserved, but goals can drift apart.</li>
        <li><strong>Hybrid:</strong> a joint account for shared expenses and goals, plus personal accounts for
        individual spending. Many couples find this the easiest balance.</li>
      </ul>
      <p>If your incomes differ, consider sharing costs in proportion to income. If one partner takes home $4,000 a
      month and the other $2,000, and shared expenses are $3,000, they might contribute $2,000 and $1,000.</p>
      <h3>What happens to debt</h3>
      <p>Marriage does not merge credit reports, and debts you brought into the marriage generally remain yours.
      Any account you open jointly or co-sign, however, is fully the responsibility of both of you, and the rules
      differ in community property states. A shared plan to pay down each partner's high-interest debt is often
      the fastest route to shared goals.</p>
      <h3>Housekeeping after the wedding</h3>
      <ul>
        <li>Update the beneficiaries on retirement accounts and life insurance.</li>
        <li>Review health insurance; marriage is a qualifying life event that lets you change plans.</li>
        <li>Revisit the tax withholding on your W-4 forms, since your combined income may change your bracket.</li>
        <li>Hold a monthly money meeting to review the budget and your progress.</li>
      </ul>
    `,
  ),
  learningModule(
    'major_milestones',
    'buying_a_car_wisely',
    fragment`
      <h2>Buying a car without overpaying</h2>
      <p>A car is often the second-largest purchase people make, and car loans are among the most common household
      debts. A few rules keep a car from becoming a financial burden.</p>
      <h3>Set your budget first</h3>
      <p>A popular guideline is the 20/4/10 rule: put at least 20% down, finance for no more than four years, and
      keep total car costs, meaning payment, insurance and fuel, under 10% of your gross income. It is strict, but
      it keeps you from owing more than the car is worth.</p>
      <h3>Why the loan term matters</h3>
      <p>Longer loans lower the monthly payment but raise the total cost. Borrowing $25,000 at an assumed 7%
      APR:</p>
      <ul>
        <li>Over 60 months, the payment is about $495 and the total interest about $4,700.</li>
        <li>Over 72 months, the payment drops to about $426, but the interest rises to about $5,700.</li>
        <li>Over 84 months, the interest climbs to about $6,700, and you are likely to owe more than the car is
        worth for years.</li>
      </ul>
      <h3>Steps to a better deal</h3>
      <ol>
        <li>Get preapproved by a credit union or bank before visiting a dealer, so you know your rate and can compare
        it with dealer financing.</li>
        <li>Consider a reliable used car a few years old; new cars typically lose a large share of their value in
        the first few years.</li>
        <li>Negotiate the out-the-door price, including taxes and fees, not the monthly payment.</li>
        <li>Negotiate your trade-in separately and know its value beforehand.</li>
        <li>Decline add-ons you do not need, such as paint protection or an extended warranty, or shop for them
        separately.</li>
        <li>Get an insurance quote before you buy; premiums vary widely by model.</li>
      </ol>
      <p>If you already have a high-rate car loan, refinancing with a credit union after your credit improves can
      lower the rate. Once the loan is paid off, keep sending the same payment to savings so your next car can be
      bought with cash.</p>
    `,
  ),
];

const RISK_MANAGEMENT: ReadonlyArray<LearningModule> = [
  learningModule(
    'risk_management',
    'building_an_emergency_fund',
    fragment`
      <h2>Building an emergency fund</h2>
      <p>An emergency fund is cash set aside for unexpected costs: a car repair, a medical bill or a gap between
      jobs. Without one, surprises land on credit cards, and a debt payoff plan can unravel in a single month.</p>
      <h3>How much to save</h3>
      <ul>
        <li><strong>Starter goal:</strong> $1,000, or one month of essential expenses, while you pay down
        high-interest debt.</li>
        <li><strong>Full goal:</strong> three to six months of essential expenses. Aim higher if your income is
        irregular, you are the only earner, or your field has frequent layoffs.</li>
      </ul>
      <p>Essential expenses are the bills you would still pay if your income stopped: housing, utilities, groceries,
      insurance, transportation and minimum debt payments. If they total $2,400 a month, your full goal is $7,200 to
      $14,400.</p>
      <h3>Where to keep it</h3>
      <p>Keep the money safe and available, in a high-yield savings or money market account at a bank or credit
      union insured by the FDIC or NCUA, which protect deposits up to $250,000 per depositor, per institution, per
      ownership category. Keep it apart from everyday checking so it is not spent by accident, and do not invest it
      in stocks, which can fall just when you need the cash.</p>
      <h3>Steps to build it</h3>
      <ol>
        <li>Open a dedicated savings account and name it <em>Emergency fund</em>.</li>
        <li>Set an automatic transfer on payday, even if it is only $25.</li>
        <li>Send windfalls such as tax refunds, bonuses and gifts straight to the fund until you reach your
        goal.</li>
        <li>Cancel one recurring cost, such as an unused subscription, and redirect that amount.</li>
        <li>Define an emergency in advance: unexpected, necessary and urgent. A sale is not an emergency.</li>
        <li>After using the fund, pause extra debt payments and refill it first.</li>
      </ol>
      <p>Saving $200 a month reaches $1,000 in five months and $7,200 in three years. That can feel slow, but every
      dollar saved is a dollar you will not have to borrow at credit card rates.</p>
    `,
  ),
  learningModule(
    'risk_management',
    'insurance_basics',
    fragment`
      <h2>Insurance basics</h2>
      <p>Insurance protects you from costs that would be devastating to pay on your own. An uninsured hospital stay,
      car accident or lawsuit can create more debt in one day than years of careful budgeting can undo.</p>
      <h3>Key terms</h3>
      <ul>
        <li><strong>Premium:</strong> what you pay, monthly or yearly, to keep the policy.</li>
        <li><strong>Deductible:</strong> what you pay on a claim before insurance starts paying.</li>
        <li><strong>Coinsurance or copay:</strong> your share of costs after the deductible.</li>
        <li><strong>Out-of-pocket maximum:</strong> in health insurance, the most you pay for covered care in a
        year.</li>
        <li><strong>Liability coverage:</strong> pays for damage or injuries you cause to others.</li>
      </ul>
      <h3>Coverage most people need</h3>
      <ol>
        <li><strong>Health insurance.</strong> Medical bills are a leading source of debt. With a qualifying
        high-deductible plan, a health savings account (HSA) lets you save for medical costs with tax
        advantages.</li>
        <li><strong>Auto insurance.</strong> State minimum liability limits are often too low to cover a serious
        accident, and higher limits usually cost little more.</li>
        <li><strong>Renters or homeowners insurance.</strong> Renters insurance is typically inexpensive and covers
        your belongings and your personal liability.</li>
        <li><strong>Disability insurance.</strong> Your ability to earn is your largest asset; check whether your
        employer offers coverage.</li>
        <li><strong>Life insurance</strong>, if anyone depends on your income. Term life insurance is usually the
        most affordable way to cover those years.</li>
      </ol>
      <h3>Choosing a deductible</h3>
      <p>A higher deductible lowers your premium but raises what you pay when something happens. Suppose raising your
      auto deductible from $500 to $1,000 saves $150 a year. If your emergency fund could cover $1,000, the higher
      deductible may be worth it: you come out ahead if you go more than about three years between claims. If a
      $1,000 bill would go on a credit card, keep the lower deductible.</p>
      <p>Review your policies once a year and whenever your life changes, and compare quotes from several insurers.
      Never let a policy lapse to free up cash for other bills; a gap in coverage can cost far more than the premiums
      you save.</p>
    `,
  ),
  learningModule(
    'risk_management',
    'protecting_against_identity_theft',
    fragment`
      <h2>Protecting yourself from identity theft</h2>
      <p>Identity theft happens when someone uses your personal information, often your Social Security number, to
      open accounts or make charges in your name. It can leave you with collection calls and damaged credit that
      take months to repair.</p>
      <h3>Prevention steps</h3>
      <ol>
        <li><strong>Freeze your credit</strong> at Equifax, Experian and TransUnion. A freeze is free, does not
        affect your score and stops new lenders from viewing your report. Lift it temporarily when you apply for
        credit.</li>
        <li><strong>Use strong, unique passwords</strong> with a password manager, and turn on multi-factor
        authentication for your bank, email and card accounts.</li>
        <li><strong>Set up account alerts</strong> for every transaction or for purchases above a small
        amount.</li>
        <li><strong>Distrust urgent requests.</strong> Banks and government agencies do not ask for passwords or
        one-time codes by phone, text or email. Hang up and call the number on your card.</li>
        <li><strong>Protect documents.</strong> Shred old statements and offers, and do not carry your Social
        Security card.</li>
      </ol>
      <h3>Warning signs</h3>
      <ul>
        <li>Charges or withdrawals you do not recognize.</li>
        <li>Bills or collection notices for accounts you never opened.</li>
        <li>An unexpected credit denial or a sudden drop in your score.</li>
        <li>A tax return rejected because one was already filed with your Social Security number.</li>
      </ul>
      <h3>If it happens</h3>
      <ol>
        <li>Call the fraud departments of the affected companies and close or freeze the accounts.</li>
        <li>Report the theft at IdentityTheft.gov, the Federal Trade Commission's site, which builds a recovery plan
        and an identity theft report.</li>
        <li>Freeze your credit at all three bureaus if you have not already, or place a fraud alert.</li>
        <li>Dispute fraudulent accounts and inquiries with each bureau, attaching your identity theft report.</li>
      </ol>
      <p>Under federal law, your liability for unauthorized credit card charges is capped at $50, and most issuers
      offer zero liability. Debit cards have weaker protection that depends on how quickly you report the problem,
      one more reason to act right away.</p>
    `,
  ),
];

const TEEN_FINANCE: ReadonlyArray<LearningModule> = [
  learningModule(
    'teen_finance',
    'your_first_credit_card',
    fragment`
      <h2>Your first credit card</h2>
      <p>Used well, a credit card is one of the easiest ways to start building credit. Used carelessly, it is one of
      the easiest ways to start a cycle of debt. The difference comes down to a few habits.</p>
      <h3>How teens get started</h3>
      <ul>
        <li><strong>Authorized user:</strong> a parent can add you to their card. Many issuers report the account
        to your credit file, so the parent's on-time history helps you start building credit.</li>
        <li><strong>Student or secured card:</strong> at 18 you can apply for your own card. Under 21, federal law
        requires you to show independent income or have a co-signer, and many issuers no longer accept co-signers.
        A secured card requires a cash deposit, often equal to the credit limit.</li>
      </ul>
      <h3>Rules to live by</h3>
      <ol>
        <li><strong>Pay the full statement balance every month.</strong> Then the grace period means you pay no
        interest on purchases.</li>
        <li><strong>Never miss a payment.</strong> Set up autopay for at least the minimum as a safety net.</li>
        <li><strong>Keep your balance low.</strong> On a $500 limit, keep the balance under $150, which is below 30%
        of the limit.</li>
        <li><strong>Charge only what you already have the cash to pay.</strong> Treat the card like a debit card
        that builds credit.</li>
        <li><strong>Read every statement</strong> to catch mistakes and fraud.</li>
      </ol>
      <h3>What minimum payments really cost</h3>
      <p>Suppose you carry a $1,000 balance at an illustrative 24% APR and stop using the card. Paying $40 a month
      takes about three years and costs about $400 in interest. Paying $100 a month clears it in a year with about
      $127 in interest. Paying only the minimum keeps you in debt longest; paying more saves real money.</p>
      <p>Start with one card, use it for one small regular expense such as a phone bill, and pay it off in full.
      After a year of on-time payments you will have the start of a credit history that makes renting an
      apartment, financing a car and getting good rates easier.</p>
    `,
  ),
  learningModule(
    'teen_finance',
    'earning_your_first_paycheck',
    fragment`
      <h2>Earning your first paycheck</h2>
      <p>Your first job brings your first paycheck, and probably your first surprise: the amount you take home is
      less than your hourly wage times your hours. Understanding why, and deciding in advance what to do with the
      money, builds habits that last a lifetime.</p>
      <h3>Gross pay vs. net pay</h3>
      <p>Gross pay is what you earned; net pay is what lands in your account. The difference is deductions:</p>
      <ul>
        <li><strong>Social Security and Medicare (FICA):</strong> 7.65% of your wages, withheld from almost every
        paycheck.</li>
        <li><strong>Federal income tax</strong>, based on the W-4 form you fill out when you are hired.</li>
        <li><strong>State and local income tax</strong> in many places.</li>
      </ul>
      <p>If you earn $2,000 over a summer, $153 goes to Social Security and Medicare. Many teens earn too little to
      owe federal income tax for the year, so if income tax was withheld, filing a tax return can get it
      refunded.</p>
      <h3>Set up your money</h3>
      <ol>
        <li>Open a checking account and a savings account. Under 18 you will typically need a parent or guardian as
        a joint owner.</li>
        <li>Set up direct deposit so your pay arrives automatically.</li>
        <li>Pay yourself first: on payday, move a set share, such as 20%, into savings before spending
        anything.</li>
        <li>Give each savings goal a name and a date: a laptop by December, a car by graduation.</li>
        <li>Track your spending for one month to see where the rest goes.</li>
      </ol>
      <h3>A head start on retirement</h3>
      <p>Once you have earned income, you can contribute to a Roth IRA (a custodial one if you are a minor), up to
      the amount you earned or the yearly limit, whichever is less. Money in a Roth IRA grows tax-free, and
      qualified withdrawals in retirement are tax-free. At an assumed 7% average return, money roughly doubles every
      ten years, so $1,000 invested at 16 has about five doublings ahead of it before a typical retirement age.</p>
      <p>Learning to live on less than you earn is far easier now than unlearning expensive habits later.</p>
    `,
  ),
];

/**
 * Every learning module, grouped by category in the order of the `Category`
 * codec, each category's modules in a fixed order.
 * @example LEARNING_MODULES.filter((m) => m.category === 'college').map((m) => m.title)
 */
export const LEARNING_MODULES: ReadonlyArray<LearningModule> = Object.freeze([
  ...CAREER,
  ...COLLEGE,
  ...ENTREPRENEURSHIP,
  ...FINANCIAL_BASICS,
  ...INVESTING,
  ...MAJOR_MILESTONES,
  ...RISK_MANAGEMENT,
  ...TEEN_FINANCE,
]);
